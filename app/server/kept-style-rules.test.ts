import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import styled, { createGlobalStyle, keyframes, ServerStyleSheet } from 'styled-components'
import { describe, expect, it } from 'vitest'
import { keepStyleRules } from './kept-style-rules'

const spin = keyframes`from { transform: rotate(0deg); } to { transform: rotate(360deg); }`
const Global = createGlobalStyle`body { margin: 0; }`
const Card = styled.div<{ $tone: 'plain' | 'alert' }>`
  padding: 8px;
  color: ${(props) => (props.$tone === 'alert' ? 'red' : 'black')};
  &:hover {
    animation: ${spin} 1s;
  }
`

/** One server render's style tags, with or without the kept rules. */
function render(tones: ('plain' | 'alert')[], keep: boolean): string {
  const sheet = new ServerStyleSheet()
  if (keep) keepStyleRules(sheet.instance)
  try {
    renderToString(
      sheet.collectStyles(
        createElement('main', null, createElement(Global), ...tones.map((tone, i) => createElement(Card, { key: i, $tone: tone }))),
      ),
    )
    return sheet.getStyleTags()
  } finally {
    sheet.seal()
  }
}

describe('keepStyleRules', () => {
  it('gives each render exactly the style tags styled-components alone gives, from the rules kept by earlier renders', () => {
    const plainFirst = render(['plain'], true)
    expect(plainFirst).toBe(render(['plain'], false))
    // A later render takes the kept rules, and works out only the new variant.
    const both = render(['alert', 'plain'], true)
    expect(both).toBe(render(['alert', 'plain'], false))
    expect(both).toContain('color:red')
    expect(both).toContain('@keyframes')
    // A render with fewer components gets only theirs, not every rule ever kept.
    expect(render(['plain'], true)).toBe(plainFirst)
    expect(plainFirst).not.toContain('color:red')
  })

  it('hands a new sheet the rules of a class name an earlier render worked out, so they are not worked out again', () => {
    render(['plain'], true)
    const html = renderToString(createElement(Card, { $tone: 'plain' }))
    const name = /class="[^"]*\b(\S+)"/.exec(html)?.[1]
    expect(name).toBeTruthy()
    const id = Card.styledComponentId
    const fresh = new ServerStyleSheet()
    expect(fresh.instance.hasNameForId(id, name!)).toBe(false)
    keepStyleRules(fresh.instance)
    expect(fresh.instance.hasNameForId(id, name!)).toBe(true)
    expect(fresh.getStyleTags()).toContain('padding:8px')
    fresh.seal()
  })
})
