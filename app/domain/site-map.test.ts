import { describe, expect, it } from 'vitest'
import { services } from './services.ts'
import { sitePage, sitePages } from './site-map.ts'

/** The pages that are built; every other page of the site map is planned. */
const live = [
  '/',
  '/reports',
  ...services.map((s) => `/reports/${s.id}`),
  '/reports/$service/$findingId',
  '/templates',
  '/templates/finding',
  '/analyst',
  ...services.map((s) => `/analyst/services/${s.analystSlug}`),
  '/analyst/vault/link',
  '/analyst/vault/request',
  '/analyst/agents',
  '/analyst/locations',
  '/admin',
  '/admin/company/create-company',
  '/admin/company',
  '/admin/app/users',
  '/admin/app/services',
  '/admin/keys_email',
  '/admin/company/manage-users',
  '/admin/dast',
  '/admin/api-tokens',
  '/profile',
  '/auth/redirect',
  '/vault/$',
]

describe('site map', () => {
  it('gives every page a status, and each path once', () => {
    for (const page of sitePages) expect(['planned', 'live'], page.path).toContain(page.status)
    expect(new Set(sitePages.map((p) => p.path)).size).toBe(sitePages.length)
  })

  it('has exactly the built pages live', () => {
    expect(sitePages.filter((p) => p.status === 'live').map((p) => p.path)).toEqual(live)
    expect(sitePages.filter((p) => p.status === 'planned').length).toBe(sitePages.length - live.length)
  })

  it('finds the page of a path, trailing slash and vault links included', () => {
    expect(sitePage('/profile/').title).toBe('Settings')
    expect(sitePage('/vault/share/3f9c1a').path).toBe('/vault/$')
    expect(() => sitePage('/nowhere')).toThrow()
  })
})
