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
  // The secret before the last rotation: cookies it sealed still open until they are renewed.
  SESSION_SECRET_PREVIOUS: v.optional(v.pipe(v.string(), v.minLength(32, 'SESSION_SECRET_PREVIOUS must be at least 32 characters'))),
  // The origins people open the app at, comma-separated: requests for any other Host are refused.
  APP_ORIGINS: v.optional(v.string()),
  // The search service the browser calls, when it is not Algolia's (the local search emulator).
  SEARCH_HOSTS: v.optional(v.string()),
})

/** The only JWKS a real project may verify its tokens with: Google's, over https. */
const GOOGLE_JWKS_PREFIX = 'https://www.googleapis.com/'

function originList(value: string | undefined, name: string): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  for (const origin of origins) {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      throw new Error(`Invalid Worker configuration: ${name} has ${origin}, not an origin`)
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== origin)
      throw new Error(`Invalid Worker configuration: ${name} has ${origin}, not an origin`)
  }
  return origins
}

/** Only for local runs against the emulators; refused for any real project. */
export const DEVELOPMENT_SESSION_SECRET = 'local-development-session-secret-not-for-production'

export interface ServerConfig {
  projectId: string
  apiKey: string
  jwksUrl: string
  /** Set only for `demo-` projects: the emulators are never used with a real project. */
  emulators: PublicConfig['emulators']
  sessionSecret: string
  previousSessionSecret: string | null
  /** Where the app is served; null: a local demo project, served on loopback addresses only. */
  appOrigins: string[] | null
  searchHosts: string[]
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
  if (!demo && !e.FIREBASE_JWKS_URL.startsWith(GOOGLE_JWKS_PREFIX)) {
    throw new Error(`Invalid Worker configuration: FIREBASE_JWKS_URL must be Google's (${GOOGLE_JWKS_PREFIX}…) for a real project`)
  }
  const appOrigins = originList(e.APP_ORIGINS, 'APP_ORIGINS')
  if (!demo && appOrigins.length === 0) throw new Error('Invalid Worker configuration: APP_ORIGINS is required for a real project')
  return {
    projectId: e.FIREBASE_PROJECT_ID,
    apiKey: e.FIREBASE_API_KEY,
    jwksUrl: e.FIREBASE_JWKS_URL,
    emulators:
      demo && e.FIREBASE_AUTH_EMULATOR_HOST
        ? { auth: e.FIREBASE_AUTH_EMULATOR_HOST, firestore: e.FIRESTORE_EMULATOR_HOST, functions: e.FUNCTIONS_EMULATOR_HOST }
        : null,
    sessionSecret: e.SESSION_SECRET,
    previousSessionSecret: e.SESSION_SECRET_PREVIOUS ?? null,
    appOrigins: appOrigins.length > 0 ? appOrigins : null,
    searchHosts: originList(e.SEARCH_HOSTS, 'SEARCH_HOSTS'),
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
