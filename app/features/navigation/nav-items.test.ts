import { describe, expect, it } from 'vitest'
import { companyDocument } from '../../../tests/builders.ts'
import { sitePage } from '#domain/site-map.ts'
import type { Workspace } from '~/core/workspace'
import { navItems, type NavItem } from './nav-items'

const acme = companyDocument('acme', { companyName: 'Acme', enableDast: true, enableViewResultsNetwork: true })

const flat = (items: NavItem[]): NavItem[] => items.flatMap((i) => [i, ...flat(i.children ?? [])])

describe('navItems', () => {
  it('marks each entry planned exactly when its site-map page is', () => {
    const session = { uid: 'm', email: 'm@acme.example', userType: 'client' as const, accessLevel: 2 }
    const workspace: Workspace = {
      access: { accessLevel: 2, userType: 'client' },
      preferences: { defaultCompany: 'acme', displayName: '', photoURL: '' },
      companies: [acme],
      company: acme,
    }
    const items = flat(navItems(session, workspace))
    expect(items.map((i) => i.to)).toEqual(['/', '/reports', '/reports/dast', '/reports/network'])
    for (const item of items) expect(item.planned, item.to).toBe(sitePage(item.to).status === 'planned')
    // The reports pages are built: none of these entries is planned any more.
    expect(items.filter((i) => i.planned).map((i) => i.to)).toEqual([])
  })

  it('offers only Home, live, when signed out', () => {
    expect(navItems(null, null)).toEqual([{ to: '/', label: 'Home', planned: false }])
  })
})
