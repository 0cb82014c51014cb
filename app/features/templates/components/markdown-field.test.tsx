import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { MarkdownContent } from '~/ui/markdown-content'
import { MarkdownField } from './markdown-field'

describe('MarkdownField', () => {
  const html = renderToString(<MarkdownField label="Description" saved="Hello" save={async () => {}} maxLength={20_000} />)

  it('labels the text area and counts its characters against the limit', () => {
    const id = /<label for="([^"]+)"[^>]*>Description<\/label>/.exec(html)?.[1]
    const countId = `${id}-count`
    expect(html).toMatch(new RegExp(`<textarea id="${id}"[^>]*aria-describedby="${countId}"[^>]*>Hello</textarea>`))
    expect(html).toMatch(new RegExp(`id="${countId}"[^>]*>5<!-- --> / <!-- -->20,000<!-- --> characters`))
  })

  it('offers Write and Preview as tabs, writing first', () => {
    expect(html).toMatch(/role="tablist"[^>]*aria-label="Description: write or preview"/)
    expect(html).toMatch(/role="tab" aria-selected="true"[^>]*>Write<\/button>/)
    expect(html).toMatch(/role="tab" aria-selected="false"[^>]*>Preview<\/button>/)
  })
})

describe('MarkdownContent', () => {
  it('renders the sanitised HTML of the Markdown', () => {
    const html = renderToString(<MarkdownContent source={'## Impact\n\n- [site](https://example.com)\n\n<script>alert(1)</script>'} />)
    expect(html).toContain('<h2>Impact</h2>')
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer nofollow">site</a>')
    expect(html).not.toContain('<script')
  })
})
