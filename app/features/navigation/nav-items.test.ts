import { describe, expect, it } from 'vitest'
import { companyDocument } from '../../../tests/builders.ts'
import { sitePage } from '#domain/site-map.ts'
import type { Workspace } from '~/core/workspace'
import { areaPages, navItems, type NavItem } from './nav-items'

const acme = companyDocument('acme', { companyName: 'Acme', enableDast: true, enableViewResultsNetwork: true })

const flat = (items: NavItem[]): NavItem[] => items.flatMap((i) => [i, ...flat(i.children ?? [])])

describe('navItems', () => {
  it('lists Home and the reports the person may open', () => {
    const session = { uid: 'm', email: 'm@acme.example', userType: 'client' as const, accessLevel: 2 }
    const workspace: Workspace = {
      access: { accessLevel: 2, userType: 'client' },
      preferences: { defaultCompany: 'acme', displayName: '', photoURL: '' },
      companies: [acme],
      company: acme,
    }
    const items = flat(navItems(session, workspace))
    expect(items.map((i) => i.to)).toEqual(['/', '/reports', '/reports/dast', '/reports/network'])
  })

  it('offers only Home when signed out', () => {
    expect(navItems(null, null)).toEqual([{ to: '/', label: 'Home' }])
  })
})

describe('areaPages', () => {
  const analyst = (accessLevel: number, servicesManaged: string[] = []) => ({
    access: { accessLevel, userType: 'analyst' as const, servicesManaged },
    company: acme,
  })

  it('lists the pages of an area the person may open, from the site map and the permission module', () => {
    expect(areaPages('/analyst', analyst(7)).map((i) => i.to)).toEqual([
      '/analyst/services/projectmariana',
      '/analyst/services/password-cracking',
      '/analyst/services/dast',
      '/analyst/services/network',
      '/analyst/services/cloud',
      '/analyst/vault/link',
      '/analyst/vault/request',
      '/analyst/agents',
      '/analyst/locations',
    ])
    // Level 5 with password cracking managed: that service page and the vault, nothing else.
    expect(areaPages('/analyst', analyst(5, ['password_cracking'])).map((i) => i.to)).toEqual([
      '/analyst/services/password-cracking',
      '/analyst/vault/link',
      '/analyst/vault/request',
    ])
    expect(areaPages('/templates', analyst(7)).map((i) => [i.to, i.summary])).toEqual([
      ['/templates/finding', sitePage('/templates/finding').summary],
    ])
  })

  it('puts the area pages under their area in navigation', () => {
    const session = { uid: 's', email: 's@sectest.example', userType: 'analyst' as const, accessLevel: 7 }
    const items = navItems(session, {
      ...analyst(7),
      preferences: { defaultCompany: 'acme', displayName: '', photoURL: '' },
      companies: [acme],
    })
    expect(items.find((i) => i.to === '/templates')?.children?.map((i) => i.to)).toEqual(['/templates/finding'])
    expect(items.find((i) => i.to === '/analyst')?.children?.length).toBe(9)
  })
})
