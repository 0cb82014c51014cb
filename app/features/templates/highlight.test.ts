import { describe, expect, it } from 'vitest'
import { HIGHLIGHT_POST_TAG as post, HIGHLIGHT_PRE_TAG as pre, highlightParts } from './highlight'

describe('highlightParts', () => {
  it('splits a highlighted value into plain and matched parts', () => {
    expect(highlightParts(`Reflected ${pre}cross${post}-site ${pre}scripting${post}`)).toEqual([
      { text: 'Reflected ', highlighted: false },
      { text: 'cross', highlighted: true },
      { text: '-site ', highlighted: false },
      { text: 'scripting', highlighted: true },
    ])
  })

  it('keeps markup in the record as text', () => {
    expect(highlightParts(`<img src=x onerror=alert(1)> ${pre}xss${post}`)).toEqual([
      { text: '<img src=x onerror=alert(1)> ', highlighted: false },
      { text: 'xss', highlighted: true },
    ])
  })

  it('returns the whole value when nothing matched, and nothing for an empty value', () => {
    expect(highlightParts('SMB signing not required')).toEqual([{ text: 'SMB signing not required', highlighted: false }])
    expect(highlightParts('')).toEqual([])
  })
})
