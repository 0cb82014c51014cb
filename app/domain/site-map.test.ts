import { describe, expect, it } from 'vitest'
import { services } from './services.ts'
import { sitePage, sitePages } from './site-map.ts'

/** The product's pages, in site-map order. */
const pages = [
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
  '/admin/webhooks',
  '/profile',
  '/auth/redirect',
  '/vault/$',
]

describe('site map', () => {
  it('lists each path once', () => {
    expect(new Set(sitePages.map((p) => p.path)).size).toBe(sitePages.length)
  })

  it("has exactly the product's pages", () => {
    expect(sitePages.map((p) => p.path)).toEqual(pages)
  })

  it('finds the page of a path, trailing slash and vault links included', () => {
    expect(sitePage('/profile/').title).toBe('Settings')
    expect(sitePage('/vault/share/3f9c1a').path).toBe('/vault/$')
    expect(() => sitePage('/nowhere')).toThrow()
  })
})
