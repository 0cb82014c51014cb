// Outgoing mail over SMTP (nodemailer). One transport per SMTP_URL, reused across calls.
import { createTransport } from 'nodemailer'
import type { MailConfig } from './config.ts'

type Transport = ReturnType<typeof createTransport>

let cached: { url: string; transport: Transport } | undefined

function transportFor(smtpUrl: string): Transport {
  if (cached?.url !== smtpUrl) {
    cached = {
      url: smtpUrl,
      // Options in the URL's query (e.g. ?requireTLS=true) take precedence over these.
      transport: createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }),
    }
  }
  return cached.transport
}

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html: string
}

export async function sendMail(config: MailConfig, mail: OutgoingMail): Promise<void> {
  await transportFor(config.smtpUrl).sendMail({ from: config.from, ...mail })
}
