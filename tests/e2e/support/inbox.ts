// Reads the product's emails from the local mail inbox, as a person would open them.
const INBOX = `http://127.0.0.1:${process.env.MAIL_HTTP_PORT ?? 1080}`

export interface Mail {
  id: string
  subject: string
  to: string[]
  text: string
  html: string
  links: string[]
  /** When the inbox received it (ISO 8601). */
  receivedAt: string
}

/** The next email to `to` received after `after` (ms since the epoch); fails after `timeoutMs`. */
export async function nextMail(to: string, after: number, timeoutMs = 20_000): Promise<Mail> {
  const query = new URLSearchParams({ to, after: String(after), timeout: String(timeoutMs) })
  const response = await fetch(`${INBOX}/api/wait?${query}`)
  if (!response.ok) throw new Error(`No email to ${to} (${response.status})`)
  return (await response.json()) as Mail
}

/**
 * The first email to `to` received after `after` that `wanted` accepts: other mail to them arriving
 * meanwhile (a notification) is passed over. Fails after `timeoutMs`.
 */
export async function nextMailWhere(to: string, after: number, wanted: (mail: Mail) => boolean, timeoutMs = 20_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs
  let since = after
  for (;;) {
    const newest = await nextMail(to, since, Math.max(1, deadline - Date.now()))
    const summaries = (await mailsTo(to)) as { id: string; receivedAt: string }[]
    const arrived = summaries.filter((summary) => Date.parse(summary.receivedAt) > since).reverse()
    for (const summary of arrived) {
      const full = await mailById(summary.id)
      if (wanted(full)) return full
    }
    since = Date.parse(newest.receivedAt)
  }
}

async function mailById(id: string): Promise<Mail> {
  const response = await fetch(`${INBOX}/api/messages/${encodeURIComponent(id)}`)
  if (!response.ok) throw new Error(`The inbox answered ${response.status} for message ${id}`)
  return (await response.json()) as Mail
}

/** Whether an email carries a sign-in link. */
export const hasSignInLink = (mail: Mail): boolean => mail.links.some((l) => l.includes('oobCode='))

/** The sign-in link of an email (the one carrying the one-time code). */
export function signInLink(mail: Mail): string {
  const link = mail.links.find((l) => l.includes('oobCode='))
  if (!link) throw new Error(`No sign-in link in "${mail.subject}"`)
  return link
}

/** Every email to `to` the inbox holds. */
export async function mailsTo(to: string): Promise<unknown[]> {
  const response = await fetch(`${INBOX}/api/messages?to=${encodeURIComponent(to)}`)
  if (!response.ok) throw new Error(`The inbox answered ${response.status}`)
  return (await response.json()) as unknown[]
}

/** Switches the local mail server's outage on (`false`: every connection is answered 421) or off. */
export async function setMailAccepting(accepting: boolean): Promise<void> {
  const response = await fetch(`${INBOX}/api/smtp`, { method: 'PUT', body: JSON.stringify({ accepting }) })
  if (!response.ok) throw new Error(`The mail outage switch answered ${response.status}`)
}
