import { describe, expect, it } from 'vitest'
import { companyDocument } from '../../../tests/builders.ts'
import type { Workspace } from '~/core/workspace'
import { isUnknownPage, pageAccess, sitePathOf } from './page-access'

const acme = companyDocument('acme', { companyName: 'Acme', enableDast: true })
const session = { uid: 'u', email: 'u@acme.example', userType: 'analyst' as const, accessLevel: 5 }
const workspace = (access: Workspace['access']): Workspace => ({
  access,
  preferences: { defaultCompany: 'acme', displayName: '', photoURL: '' },
  companies: [acme],
  company: acme,
})

describe('pageAccess', () => {
  it('maps route ids to site-map paths', () => {
    expect(sitePathOf('/_workspace/_member/reports/')).toBe('/reports')
    expect(sitePathOf('/_workspace/_member/analyst/services/$service')).toBe('/analyst/services/$service')
    expect(sitePathOf('/_workspace/_member/profile')).toBe('/profile')
    expect(sitePathOf('/_workspace/_member/reports/$service_/$findingId')).toBe('/reports/$service/$findingId')
    expect(sitePathOf('/_workspace/_member/admin/keys_email')).toBe('/admin/keys_email')
  })

  it('says signed out when nobody is signed in', () => {
    expect(pageAccess('/_workspace/_member/profile', {}, { session: null })).toBe('signed-out')
  })

  it('applies the page rule to the workspace, the service taken from the path', () => {
    const ctx = { session, workspace: workspace({ accessLevel: 5, userType: 'analyst', servicesManaged: ['password_cracking'] }) }
    expect(pageAccess('/_workspace/_member/reports/$service', { service: 'dast' }, ctx)).toBe('allowed')
    expect(pageAccess('/_workspace/_member/reports/$service', { service: 'network' }, ctx)).toBe('denied')
    // The analyst slug of password cracking is hyphenated; the service right uses its id.
    expect(pageAccess('/_workspace/_member/analyst/services/$service', { service: 'password-cracking' }, ctx)).toBe('allowed')
    expect(pageAccess('/_workspace/_member/analyst/services/$service', { service: 'dast' }, ctx)).toBe('denied')
    expect(pageAccess('/_workspace/_member/admin/app/users', {}, ctx)).toBe('denied')
  })

  it('falls back to the session’s claims before the workspace is known', () => {
    expect(pageAccess('/_workspace/_member/analyst/', {}, { session, workspace: null })).toBe('allowed')
    expect(pageAccess('/_workspace/_member/templates/', {}, { session, workspace: null })).toBe('denied')
  })

  it('denies a page the permission module has no rule for', () => {
    expect(pageAccess('/_workspace/_member/unknown', {}, { session, workspace: null })).toBe('denied')
  })
})

describe('isUnknownPage', () => {
  it('tells an unknown service from a page the person may not open', () => {
    expect(isUnknownPage('/_workspace/_member/reports/$service', { service: 'bogus' })).toBe(true)
    expect(isUnknownPage('/_workspace/_member/reports/$service_/$findingId', { service: 'bogus', findingId: 'x' })).toBe(true)
    expect(isUnknownPage('/_workspace/_member/analyst/services/$service', { service: 'password-cracking' })).toBe(false)
    expect(isUnknownPage('/_workspace/_member/analyst/services/$service', { service: 'password_cracking' })).toBe(true)
    expect(isUnknownPage('/_workspace/_member/reports/$service', { service: 'dast' })).toBe(false)
    expect(isUnknownPage('/_workspace/_member/profile', {})).toBe(false)
  })
})
