// The local search emulator's admin client, as the seed, the tests and the benchmarks use it. The
// emulator is one Node process on a busy machine: a large write (or the index upkeep after one) can
// hold it for longer than the client's defaults (5 s to read, 30 s to write), and a slow answer is
// not a lost one, so the client waits as long as an import would.
import { algoliasearch, type Algoliasearch } from 'algoliasearch'
import { algoliaHosts } from '#domain/template-search.ts'
import { SEARCH_EMULATOR_DEFAULTS, type SearchEmulatorConfig } from './config.ts'

const PATIENT = { connect: 10_000, read: 120_000, write: 300_000 }

export function searchEmulatorAdmin(
  config: Pick<SearchEmulatorConfig, 'host' | 'port' | 'appId' | 'adminApiKey'> = SEARCH_EMULATOR_DEFAULTS,
): Algoliasearch {
  return algoliasearch(config.appId, config.adminApiKey, {
    hosts: algoliaHosts({ hosts: [`${config.host}:${config.port}`], protocol: 'http' }, 'readWrite'),
    timeouts: PATIENT,
  })
}
