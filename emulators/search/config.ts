// Where the local search emulator listens and which credentials it accepts. The keys are local
// placeholders, not secrets: the emulator only ever holds demo data.

export const SEARCH_EMULATOR_DEFAULTS = {
  port: 7700,
  host: '127.0.0.1',
  appId: 'LOCALSEARCH',
  adminApiKey: 'local-admin-key',
  searchApiKey: 'local-search-key',
} as const

export type SearchEmulatorConfig = {
  port: number
  host: string
  appId: string
  adminApiKey: string
  searchApiKey: string
}

/** An environment variable holds something unusable; `message` is one line meant for people. */
export class SearchEmulatorConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SearchEmulatorConfigError'
  }
}

/** The emulator's settings from SEARCH_PORT, SEARCH_HOST, SEARCH_APP_ID, SEARCH_ADMIN_KEY, SEARCH_SEARCH_KEY. */
export function searchEmulatorConfigFromEnv(env: NodeJS.ProcessEnv = process.env): SearchEmulatorConfig {
  const text = (name: string, fallback: string) => env[name]?.trim() || fallback
  return {
    port: portFromEnv(env, 'SEARCH_PORT', SEARCH_EMULATOR_DEFAULTS.port),
    host: text('SEARCH_HOST', SEARCH_EMULATOR_DEFAULTS.host),
    appId: text('SEARCH_APP_ID', SEARCH_EMULATOR_DEFAULTS.appId),
    adminApiKey: text('SEARCH_ADMIN_KEY', SEARCH_EMULATOR_DEFAULTS.adminApiKey),
    searchApiKey: text('SEARCH_SEARCH_KEY', SEARCH_EMULATOR_DEFAULTS.searchApiKey),
  }
}

function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name]?.trim()
  if (value === undefined || value === '') return fallback
  const port = Number(value)
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new SearchEmulatorConfigError(`${name} must be a port number (0-65535), not "${value}"`)
  }
  return port
}
