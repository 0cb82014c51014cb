// Settings of the sign-in functions, from the environment. Locally they come from
// functions/.env.demo-sectest (the Functions emulator loads it); in production from the
// deploy's functions/.env.<projectId> (docs/production.md). Read on each call, so that a missing
// setting fails the call that needs it rather than the deploy's discovery of the functions.
import * as v from 'valibot'
import { parseOrigins } from './origins.ts'

export class ConfigError extends Error {
  override name = 'ConfigError'
}

const SmtpUrlSchema = v.pipe(
  v.string('SMTP_URL is not set'),
  v.url('SMTP_URL is not a URL'),
  v.check((value) => /^smtps?:$/.test(new URL(value).protocol), 'SMTP_URL must start with smtp:// or smtps://'),
)
const MailFromSchema = v.pipe(v.string('MAIL_FROM is not set'), v.trim(), v.minLength(3, 'MAIL_FROM is empty'))

export interface MailConfig {
  smtpUrl: string
  from: string
}

function parsed<T>(schema: v.GenericSchema<unknown, T>, value: unknown): T {
  const result = v.safeParse(schema, value)
  if (!result.success) throw new ConfigError(result.issues[0].message)
  return result.output
}

export function mailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig {
  return { smtpUrl: parsed(SmtpUrlSchema, env.SMTP_URL), from: parsed(MailFromSchema, env.MAIL_FROM) }
}

export function appOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  if (!env.APP_ORIGINS) throw new ConfigError('APP_ORIGINS is not set')
  try {
    return parseOrigins(env.APP_ORIGINS)
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error))
  }
}
