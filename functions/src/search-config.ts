// Where the functions reach the search service, from the environment. SEARCH_APP_ID is a plain
// setting (functions/.env.<projectId>); the two keys are Secret Manager secrets in production and
// local placeholders in functions/.env.demo-sectest; SEARCH_HOSTS exists only locally, where the
// search emulator stands in for Algolia's hosts.
import { defineSecret } from 'firebase-functions/params'
import * as v from 'valibot'
import type { SearchHosts } from '#domain/template-library-calls.ts'
import { ConfigError } from './config.ts'

/** Parent of the secured keys handed to browsers: whoever holds it could search every index. */
export const searchSearchKey = defineSecret('SEARCH_SEARCH_KEY')
/** Writes the index. */
export const searchAdminKey = defineSecret('SEARCH_ADMIN_KEY')

type SearchSecret = typeof searchSearchKey

/**
 * The secrets a function declares. The Functions emulator would ask Secret Manager for declared
 * secrets before using the local values of .env.demo-sectest, so there it declares none.
 */
export const declaredSecrets = (...secrets: SearchSecret[]): SearchSecret[] => (process.env.FUNCTIONS_EMULATOR === 'true' ? [] : secrets)

export interface SearchConfig {
  appId: string
  apiKey: string
  /** Null: Algolia's own hosts. */
  hosts: SearchHosts | null
}

const setting = (name: string) => v.pipe(v.string(`${name} is not set`), v.trim(), v.minLength(1, `${name} is empty`))

function searchHosts(text: string | undefined): SearchHosts | null {
  if (text === undefined || text.trim() === '') return null
  const urls = text.split(',').map((item) => item.trim())
  const parsed = urls.map((item) => {
    const url = URL.canParse(item) ? new URL(item) : null
    if (!url || !/^https?:$/.test(url.protocol) || url.host === '' || (url.pathname !== '/' && url.pathname !== '')) {
      throw new ConfigError(`SEARCH_HOSTS lists "${item}", which is not an address like http://127.0.0.1:7700`)
    }
    return url
  })
  const protocols = new Set(parsed.map((url) => url.protocol))
  if (protocols.size > 1) throw new ConfigError('SEARCH_HOSTS mixes http and https addresses')
  return { hosts: parsed.map((url) => url.host), protocol: parsed[0]?.protocol === 'https:' ? 'https' : 'http' }
}

/** The search service's settings with one of its keys; throws ConfigError when one is missing. */
export function searchConfig(key: SearchSecret, env: NodeJS.ProcessEnv = process.env): SearchConfig {
  const read = (name: string) => {
    const result = v.safeParse(setting(name), env[name])
    if (!result.success) throw new ConfigError(result.issues[0].message)
    return result.output
  }
  return { appId: read('SEARCH_APP_ID'), apiKey: read(key.name), hosts: searchHosts(env.SEARCH_HOSTS) }
}
