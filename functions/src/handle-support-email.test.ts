import { describe, expect, it } from 'vitest'
import { ConfigError } from './config.ts'
import { supportInbox, supportMail, supportReplyTo } from './handle-support-email.ts'

const input = {
  sender: { uid: 'u-123', email: 'ada@acme.example', emailVerified: true, displayName: 'Ada <Admin>' },
  company: { slug: 'acme', name: 'Acme & Co' },
  request: { message: 'Line one\n<script>alert(1)</script>', request_type: 'bug' as const },
  sentAt: new Date('2026-03-03T10:15:00Z'),
}

describe('supportMail', () => {
  it('names the sender, the company and the request type, then the message', () => {
    const mail = supportMail(input)
    expect(mail.subject).toBe('[Bulwark support] Bug report from ada@acme.example')
    expect(mail.text).toContain('Request type: Bug report (bug)')
    expect(mail.text).toContain('From: ada@acme.example\n')
    expect(mail.text).toContain('Name (self-declared): Ada <Admin>')
    expect(mail.text).toContain('User id: u-123')
    expect(mail.text).toContain('Company: Acme & Co (acme)')
    expect(mail.text).toContain('Sent at: 2026-03-03T10:15:00.000Z')
    expect(mail.text).toContain(input.request.message)
  })

  it('keeps the message out of the subject', () => {
    expect(supportMail(input).subject).not.toContain('Line one')
  })

  it('escapes every value in the HTML', () => {
    const { html } = supportMail(input)
    expect(html).not.toContain('<script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).toContain('Ada &lt;Admin&gt;')
    expect(html).toContain('Acme &amp; Co (acme)')
  })

  it('copes with a sender without email, name or company', () => {
    const mail = supportMail({ ...input, sender: { uid: 'u-9', email: null, emailVerified: false, displayName: null }, company: null })
    expect(mail.subject).toBe('[Bulwark support] Bug report from u-9')
    expect(mail.text).toContain('From: no email')
    expect(mail.text).toContain('Company: none')
  })
})

describe('the sender of a support mail', () => {
  it('is never the self-declared name, which is labelled as such', () => {
    const mail = supportMail({ ...input, sender: { ...input.sender, displayName: 'Acme CISO' } })
    expect(mail.text).not.toMatch(/From: Acme CISO/)
    expect(mail.text).toContain('Name (self-declared): Acme CISO')
  })

  it('answers to an address only once a sign-in proved it', () => {
    const unverified = { ...input.sender, emailVerified: false }
    expect(supportReplyTo(input.sender)).toBe('ada@acme.example')
    expect(supportReplyTo(unverified)).toBeNull()
    const mail = supportMail({ ...input, sender: unverified })
    expect(mail.subject).toBe('[Bulwark support] Bug report from u-123')
    expect(mail.text).toContain('From: ada@acme.example (not verified)')
  })
})

describe('supportInbox', () => {
  it('reads SUPPORT_INBOX', () => {
    expect(supportInbox({ SUPPORT_INBOX: ' support@bulwark.example ' })).toBe('support@bulwark.example')
  })

  it('refuses a missing or malformed address', () => {
    expect(() => supportInbox({})).toThrow(ConfigError)
    expect(() => supportInbox({ SUPPORT_INBOX: 'support' })).toThrow(ConfigError)
  })
})
