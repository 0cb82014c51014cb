import { describe, expect, it } from 'vitest'
import { escapeHtml, formatRequestTime, signInMail } from './sign-in-mail.ts'

const input = {
  link: 'http://127.0.0.1:9099/emulator/action?mode=signIn&oobCode=abc&apiKey=k&continueUrl=x',
  email: 'viewer@acme.example',
  requestedAt: new Date('2026-03-03T10:15:00Z'),
  timeZone: 'Asia/Kathmandu',
}

describe('formatRequestTime', () => {
  it('writes the moment in the given zone, on a 24-hour clock', () => {
    expect(formatRequestTime(input.requestedAt, 'Asia/Kathmandu')).toMatch(/^Tuesday, March 3, 2026 at 16:00 GMT\+5:45$/)
    expect(formatRequestTime(input.requestedAt, 'America/Los_Angeles')).toMatch(/^Tuesday, March 3, 2026 at 02:15 PST$/)
  })
})

describe('signInMail', () => {
  it('carries the link, the address, the time and its zone in text and HTML', () => {
    const mail = signInMail(input)
    expect(mail.subject).toBe('Your Bulwark sign-in link')
    expect(mail.text).toContain(input.link)
    expect(mail.text).toContain('viewer@acme.example')
    expect(mail.text).toContain('16:00 GMT+5:45 (Asia/Kathmandu)')
    expect(mail.text).toContain('works once and expires')
    expect(mail.html).toContain(`href="${input.link.replaceAll('&', '&amp;')}"`)
    expect(mail.html).toContain('16:00 GMT+5:45 (Asia/Kathmandu)')
  })

  it('names the zone once when the time already ends with it', () => {
    const mail = signInMail({ ...input, timeZone: 'UTC' })
    expect(mail.text).toContain('on Tuesday, March 3, 2026 at 10:15 UTC.')
    expect(mail.text).not.toContain('UTC (UTC)')
    expect(mail.html).toContain('at 10:15 UTC.')
    expect(mail.html).not.toContain('UTC (UTC)')
  })

  it('escapes every value in the HTML', () => {
    const mail = signInMail({ ...input, email: '"><script>x</script>@x.example', link: 'https://x.example/?a="b"&c=<d>' })
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('&quot;&gt;&lt;script&gt;')
    expect(mail.html).toContain('href="https://x.example/?a=&quot;b&quot;&amp;c=&lt;d&gt;"')
  })
})

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;')
  })
})
