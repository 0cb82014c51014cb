// The sign-in email: subject, plain text and a simple HTML version with inline styles (mail
// clients drop <style> blocks and external CSS).
import { brand } from '#domain/brand.ts'

export interface SignInMailInput {
  link: string
  email: string
  requestedAt: Date
  timeZone: string
}

export interface SignInMail {
  subject: string
  text: string
  html: string
}

// e.g. "Tuesday, March 3, 2026 at 19:15 GMT+9". 24-hour clock: no AM/PM to misread.
export function formatRequestTime(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  }).format(date)
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c)
}

export function signInMail({ link, email, requestedAt, timeZone }: SignInMailInput): SignInMail {
  const subject = `Your ${brand.name} sign-in link`
  const time = formatRequestTime(requestedAt, timeZone)
  // The zone's name only where the time does not already end with it ("10:15 UTC", not "10:15 UTC (UTC)").
  const when = time.endsWith(` ${timeZone}`) ? time : `${time} (${timeZone})`
  const expiry = 'The link works once and expires soon; if it no longer works, ask for a new one.'
  const ignore = `If you did not ask to sign in to ${brand.name}, ignore this email: nobody can sign in without the link.`

  const text = [
    `Hello,`,
    '',
    `Someone asked to sign in to ${brand.name} as ${email} on ${when}.`,
    'Open this link to sign in:',
    '',
    link,
    '',
    expiry,
    ignore,
    '',
    `${brand.name} · ${brand.tagline}`,
  ].join('\n')

  const e = escapeHtml
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f6f7f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#161b22;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f6f7f9;padding:32px 16px;">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #dde1e7;border-radius:8px;">
<tr><td style="padding:24px 32px 0;font-size:20px;font-weight:700;color:#161b22;">${e(brand.name)}</td></tr>
<tr><td style="padding:16px 32px 0;font-size:16px;line-height:24px;">
<p style="margin:0 0 16px;">Someone asked to sign in to ${e(brand.name)} as <strong>${e(email)}</strong> on ${e(when)}.</p>
<p style="margin:0 0 24px;">Use this button to sign in:</p>
</td></tr>
<tr><td align="center" style="padding:0 32px 24px;">
<a href="${e(link)}" style="display:inline-block;background:#2563c9;color:#ffffff;text-decoration:none;font-weight:600;font-size:16px;padding:12px 28px;border-radius:6px;">Sign in to ${e(brand.name)}</a>
</td></tr>
<tr><td style="padding:0 32px 24px;font-size:14px;line-height:20px;color:#57606a;">
<p style="margin:0 0 12px;">Or open this address in your browser:<br><a href="${e(link)}" style="color:#2563c9;word-break:break-all;">${e(link)}</a></p>
<p style="margin:0 0 12px;">${e(expiry)}</p>
<p style="margin:0;">${e(ignore)}</p>
</td></tr>
</table>
<p style="margin:16px 0 0;font-size:12px;color:#57606a;">${e(brand.name)} · ${e(brand.tagline)}</p>
</td></tr>
</table>
</body>
</html>
`
  return { subject, text, html }
}
