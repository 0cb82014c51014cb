import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { EMPTY_SUPPORT_DRAFT, SupportForm, type SupportDraft } from './support-dialog'

const render = (draft: SupportDraft, sending = false) =>
  renderToString(
    <SupportForm
      draft={draft}
      onDraftChange={() => {}}
      sending={sending}
      onSendingChange={() => {}}
      onSent={() => {}}
      onCancel={() => {}}
      send={async () => ({ success: true })}
    />,
  )

describe('SupportForm', () => {
  it('offers the three request types as radios, question chosen by default', () => {
    const html = render(EMPTY_SUPPORT_DRAFT)
    expect(html).toContain('<legend')
    expect(html.match(/type="radio"/g)).toHaveLength(3)
    const checked = html.match(/<input[^>]*checked=""[^>]*>/g) ?? []
    expect(checked).toHaveLength(1)
    expect(checked[0]).toContain('value="question"')
    for (const label of ['Feature request', 'Question', 'Bug report']) expect(html).toContain(label)
  })

  it('labels the message field and counts its characters', () => {
    const html = render({ message: 'Hello', request_type: 'bug' })
    const id = /<label[^>]*for="([^"]+)"[^>]*>Message<\/label>/.exec(html)?.[1]
    expect(id).toBeTruthy()
    expect(html).toContain(`<textarea id="${id}"`)
    expect(html).toMatch(/5<!-- --> \/ <!-- -->5000<!-- --> characters/)
  })

  it('shows Send, or a busy Sending… while the message is on its way', () => {
    expect(render(EMPTY_SUPPORT_DRAFT)).toContain('>Send</button>')
    const busy = render({ message: 'Hello', request_type: 'bug' }, true)
    expect(busy).toContain('aria-busy="true"')
    expect(busy).toContain('Sending…')
    expect(busy).toContain('Hello</textarea>')
  })
})
