import { env } from 'cloudflare:workers'
import * as v from 'valibot'
import type { PublicConfig } from '~/core/session'
import { GOOGLE_SECURETOKEN_JWKS_URL } from './id-token.server'

/** The Worker's configuration, by the names the deployment sets (wrangler vars and secrets). */
const EnvSchema = v.object({
  FIREBASE_PROJECT_ID: v.pipe(v.string(), v.regex(/^[a-z0-9-]{4,40}$/, 'FIREBASE_PROJECT_ID must be a Firebase project id')),
  FIREBASE_API_KEY: v.pipe(v.string(), v.minLength(1, 'FIREBASE_API_KEY is required')),
  FIREBASE_JWKS_URL: v.optional(v.pipe(v.string(), v.url()), GOOGLE_SECURETOKEN_JWKS_URL),
  FIREBASE_AUTH_EMULATOR_HOST: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]+:\d+$/))),
  FIRESTORE_EMULATOR_HOST: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]+:\d+$/))),
  FUNCTIONS_EMULATOR_HOST: v.optional(v.pipe(v.string(), v.regex(/^[\w.-]+:\d+$/))),
  PRIMARY_COLOR: v.optional(v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'PRIMARY_COLOR must be a colour like #2563c9'))),
  PRIMARY_COLOR_DARK: v.optional(v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'PRIMARY_COLOR_DARK must be a colour like #6ea2ff'))),
  SESSION_SECRET: v.pipe(v.string('SESSION_SECRET is required'), v.minLength(32, 'SESSION_SECRET must be at least 32 characters')),
})

/** Only for local runs against the emulators; refused for any real project. */
export const DEVELOPMENT_SESSION_SECRET = 'local-development-session-secret-not-for-production'

export interface ServerConfig {
  projectId: string
  apiKey: string
  jwksUrl: string
  /** Set only for `demo-` projects: the emulators are never used with a real project. */
  emulators: PublicConfig['emulators']
  sessionSecret: string
  brandColors: PublicConfig['brandColors']
}

/** Checks the Worker's variables; a missing or unsafe setting throws, naming it. */
export function parseServerConfig(vars: Record<string, unknown>): ServerConfig {
  const parsed = v.safeParse(EnvSchema, vars)
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? ''}: ${issue.message}`).join('; ')
    throw new Error(`Invalid Worker configuration: ${problems}`)
  }
  const e = parsed.output
  const demo = e.FIREBASE_PROJECT_ID.startsWith('demo-')
  if (!demo && e.SESSION_SECRET === DEVELOPMENT_SESSION_SECRET) {
    throw new Error('Invalid Worker configuration: SESSION_SECRET is the development value; set a secret for this project')
  }
  return {
    projectId: e.FIREBASE_PROJECT_ID,
    apiKey: e.FIREBASE_API_KEY,
    jwksUrl: e.FIREBASE_JWKS_URL,
    emulators:
      demo && e.FIREBASE_AUTH_EMULATOR_HOST
        ? { auth: e.FIREBASE_AUTH_EMULATOR_HOST, firestore: e.FIRESTORE_EMULATOR_HOST, functions: e.FUNCTIONS_EMULATOR_HOST }
        : null,
    sessionSecret: e.SESSION_SECRET,
    brandColors: { light: e.PRIMARY_COLOR ?? null, dark: e.PRIMARY_COLOR_DARK ?? null },
  }
}

let cached: ServerConfig | undefined

/** The configuration of this isolate, checked once. */
export function serverConfig(): ServerConfig {
  cached ??= parseServerConfig(env)
  return cached
}

export function publicConfig(): PublicConfig {
  const config = serverConfig()
  return {
    projectId: config.projectId,
    apiKey: config.apiKey,
    authDomain: `${config.projectId}.firebaseapp.com`,
    emulators: config.emulators,
    brandColors: config.brandColors,
  }
}
