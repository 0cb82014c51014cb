import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TagInput } from './tag-input'

const html = renderToString(
  <TagInput
    saved={['xss', 'csrf']}
    onAdd={async () => {}}
    onRemove={async () => {}}
    suggestions={[
      { tag: 'tls', count: 1 },
      { tag: 'xss', count: 40 },
    ]}
  />,
)

describe('TagInput', () => {
  it('is a labelled combobox that controls a collapsed listbox of suggestions', () => {
    const id = /<label for="([^"]+)"[^>]*>Tags<\/label>/.exec(html)?.[1]
    const input = new RegExp(`<input id="${id}"[^>]*>`).exec(html)?.[0] ?? ''
    expect(input).toContain('role="combobox"')
    expect(input).toContain('aria-autocomplete="list"')
    expect(input).toContain('aria-expanded="false"')
    expect(input).not.toContain('aria-activedescendant')
    const listbox = /aria-controls="([^"]+)"/.exec(input)?.[1]
    expect(html).toMatch(new RegExp(`<ul id="${listbox}" role="listbox" aria-label="Tag suggestions" hidden=""`))
  })

  it('suggests tags not chosen yet, each with how many templates use it', () => {
    expect(html).toMatch(/role="option" aria-selected="false" aria-label="tls, 1 template"/)
    expect(html).not.toContain('aria-label="xss, 40 templates"')
  })

  it('lists the tags with a labelled remove button each', () => {
    expect(html).toMatch(/<ul[^>]*aria-label="Chosen tags"[^>]*><li[^>]*>xss<button type="button"[^>]*aria-label="Remove xss"/)
    expect(html).toContain('aria-label="Remove csrf"')
  })
})
