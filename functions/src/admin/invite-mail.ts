// The invitation: who invited whom, and the sign-in link (the same link as a sign-in from Home).
import { brand } from '#domain/brand.ts'
import { escapeHtml, type SignInMail } from '../sign-in-mail.ts'

export interface InviteMailInput {
  link: string
  email: string
  invitedBy: string
}

export function inviteMail({ link, email, invitedBy }: InviteMailInput): SignInMail {
  const subject = `You are invited to ${brand.name}`
  const later = `The link works once and expires soon; afterwards, sign in from ${brand.name}'s home page with ${email}.`
  const text = [
    'Hello,',
    '',
    `${invitedBy} invited you to ${brand.name} as ${email}.`,
    'Open this link to sign in:',
    '',
    link,
    '',
    later,
    '',
    `${brand.name} · ${brand.tagline}`,
  ].join('\n')
  const e = escapeHtml
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:24px 16px;background:#f6f7f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#161b22;">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #dde1e7;border-radius:8px;padding:24px 32px;">
<p style="margin:0 0 16px;font-size:20px;font-weight:700;">${e(brand.name)}</p>
<p style="margin:0 0 16px;font-size:16px;line-height:24px;">${e(invitedBy)} invited you to ${e(brand.name)} as <strong>${e(email)}</strong>.</p>
<p style="margin:0 0 24px;"><a href="${e(link)}" style="display:inline-block;background:#2563c9;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 28px;border-radius:6px;">Sign in to ${e(brand.name)}</a></p>
<p style="margin:0 0 12px;font-size:14px;color:#57606a;">Or open this address in your browser:<br><a href="${e(link)}" style="color:#2563c9;word-break:break-all;">${e(link)}</a></p>
<p style="margin:0;font-size:14px;color:#57606a;">${e(later)}</p>
</div>
</body>
</html>
`
  return { subject, text, html }
}
