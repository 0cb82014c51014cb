import { describe, expect, it } from 'vitest'
import { allCompanyFlags } from '#domain/access.ts'
import { adminAreas } from './admin-areas.ts'

const paths = (...args: Parameters<typeof adminAreas>) => adminAreas(...args).map((area) => area.page.path)

describe('adminAreas', () => {
  it("gives a company admin their company's people, API tokens and webhooks, and DAST keys only where the company triggers DAST", () => {
    const admin = { accessLevel: 3, userType: 'client' as const }
    expect(paths(admin, allCompanyFlags(false))).toEqual(['/admin/company/manage-users', '/admin/api-tokens', '/admin/webhooks'])
    expect(paths(admin, allCompanyFlags(true))).toEqual([
      '/admin/company/manage-users',
      '/admin/dast',
      '/admin/api-tokens',
      '/admin/webhooks',
    ])
  })

  it('gives a platform admin every area, with the counts each shows', () => {
    const areas = adminAreas({ accessLevel: 9, userType: 'analyst' }, allCompanyFlags(true))
    expect(areas.map((area) => [area.page.path, area.count])).toEqual([
      ['/admin/company/create-company', null],
      ['/admin/company', 'companies'],
      ['/admin/app/users', 'people'],
      ['/admin/app/services', null],
      ['/admin/keys_email', 'keys-expiring'],
      ['/admin/company/manage-users', 'company-people'],
      ['/admin/dast', null],
      ['/admin/api-tokens', null],
      ['/admin/webhooks', null],
    ])
  })

  it('gives a client manager nothing', () => {
    expect(paths({ accessLevel: 2, userType: 'client' }, allCompanyFlags(true))).toEqual([])
  })
})
