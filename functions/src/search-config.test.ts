import { describe, expect, it } from 'vitest'
import { ConfigError } from './config.ts'
import { searchAdminKey, searchConfig, searchSearchKey } from './search-config.ts'

const production = { SEARCH_APP_ID: 'APP123', SEARCH_SEARCH_KEY: 'search-key', SEARCH_ADMIN_KEY: 'admin-key' }

describe('searchConfig', () => {
  it('reads the application id and the asked-for key; no SEARCH_HOSTS means Algolia’s own hosts', () => {
    expect(searchConfig(searchSearchKey, production)).toEqual({ appId: 'APP123', apiKey: 'search-key', hosts: null })
    expect(searchConfig(searchAdminKey, { ...production, SEARCH_HOSTS: ' ' })).toEqual({
      appId: 'APP123',
      apiKey: 'admin-key',
      hosts: null,
    })
  })

  it('reads SEARCH_HOSTS as the addresses of one protocol', () => {
    expect(searchConfig(searchSearchKey, { ...production, SEARCH_HOSTS: 'http://127.0.0.1:7700' }).hosts).toEqual({
      hosts: ['127.0.0.1:7700'],
      protocol: 'http',
    })
    expect(
      searchConfig(searchSearchKey, { ...production, SEARCH_HOSTS: 'https://a.search.example/, https://b.search.example:8443' }).hosts,
    ).toEqual({
      hosts: ['a.search.example', 'b.search.example:8443'],
      protocol: 'https',
    })
  })

  it.each([
    ['a host without protocol', '127.0.0.1:7700'],
    ['a path', 'http://127.0.0.1:7700/1/indexes'],
    ['another protocol', 'ftp://127.0.0.1:7700'],
    ['an empty entry', 'http://127.0.0.1:7700,'],
    ['mixed protocols', 'http://127.0.0.1:7700,https://search.example'],
  ])('refuses SEARCH_HOSTS with %s', (_what, hosts) => {
    expect(() => searchConfig(searchSearchKey, { ...production, SEARCH_HOSTS: hosts })).toThrow(ConfigError)
  })

  it('says which setting is missing', () => {
    expect(() => searchConfig(searchSearchKey, { SEARCH_SEARCH_KEY: 'search-key' })).toThrow(new ConfigError('SEARCH_APP_ID is not set'))
    expect(() => searchConfig(searchAdminKey, { SEARCH_APP_ID: 'APP123', SEARCH_SEARCH_KEY: 'search-key' })).toThrow(
      new ConfigError('SEARCH_ADMIN_KEY is not set'),
    )
    expect(() => searchConfig(searchSearchKey, { SEARCH_APP_ID: 'APP123', SEARCH_SEARCH_KEY: '  ' })).toThrow(
      new ConfigError('SEARCH_SEARCH_KEY is empty'),
    )
  })
})
