import { describe, expect, it } from 'vitest'
import { DEMO_ACCOUNTS, DEMO_COMPANIES, DEMO_EMAIL_KEYS, demoAccount, formatDemoAccounts, SERVICE_NAMES } from './demo-accounts.ts'

const flagNames = Object.keys(DEMO_COMPANIES[0] ?? {}).filter((key) => key.startsWith('enable'))

describe('demo companies', () => {
  it('carry the eight company feature flags, as booleans', () => {
    expect(flagNames.sort()).toEqual(
      [
        'enableViewProjectMarianaResults',
        'enableViewProjectMarianaStats',
        'enableDast',
        'enableDastTriggering',
        'enableViewResultsNetwork',
        'enableViewCloudScanStats',
        'enableViewCloudScanResults',
        'enableViewResultsPasswordCracking',
      ].sort(),
    )
    for (const company of DEMO_COMPANIES) {
      for (const flag of flagNames) expect(typeof (company as unknown as Record<string, unknown>)[flag]).toBe('boolean')
    }
  })

  it('cover everything on, nothing on, some on, and DAST without triggering', () => {
    const on = (company: (typeof DEMO_COMPANIES)[number]) =>
      flagNames.filter((flag) => (company as unknown as Record<string, boolean>)[flag])
    const counts = DEMO_COMPANIES.map((company) => on(company).length)
    expect(counts).toContain(8)
    expect(counts).toContain(0)
    expect(counts.some((count) => count > 0 && count < 8)).toBe(true)
    expect(DEMO_COMPANIES.some((c) => c.enableDast && !c.enableDastTriggering)).toBe(true)
  })

  it('have unique slugs', () => {
    expect(new Set(DEMO_COMPANIES.map((c) => c.slug)).size).toBe(DEMO_COMPANIES.length)
  })
})

describe('demo accounts', () => {
  it('hold one account at every access level, clients below 5 and analysts from 5', () => {
    expect(DEMO_ACCOUNTS.map((a) => a.accessLevel).sort((a, b) => a - b)).toEqual([1, 2, 3, 5, 7, 9])
    for (const account of DEMO_ACCOUNTS) expect(account.userType).toBe(account.accessLevel >= 5 ? 'analyst' : 'client')
  })

  it('include a client in several companies and a viewer with services of their own', () => {
    expect(DEMO_ACCOUNTS.some((a) => a.userType === 'client' && a.companies.length > 1)).toBe(true)
    expect(DEMO_ACCOUNTS.some((a) => a.accessLevel === 1 && a.servicesEnabled.length > 0)).toBe(true)
  })

  it('have unique uids and addresses on a reserved domain', () => {
    expect(new Set(DEMO_ACCOUNTS.map((a) => a.uid)).size).toBe(DEMO_ACCOUNTS.length)
    expect(new Set(DEMO_ACCOUNTS.map((a) => a.email)).size).toBe(DEMO_ACCOUNTS.length)
    for (const account of DEMO_ACCOUNTS) expect(account.email).toMatch(/^[^@\s]+@[a-z0-9.-]+\.example$/)
  })

  it('refer only to existing companies and services, with a default company they can see', () => {
    const slugs = new Set(DEMO_COMPANIES.map((c) => c.slug))
    for (const account of DEMO_ACCOUNTS) {
      for (const slug of account.companies) expect(slugs.has(slug)).toBe(true)
      for (const service of [...account.servicesEnabled, ...account.servicesManaged]) {
        expect(SERVICE_NAMES).toContain(service)
      }
      // Analysts from level 7 see every company, so any company may be their default.
      const visible = account.userType === 'analyst' && account.accessLevel >= 7 ? [...slugs] : account.companies
      if (account.defaultCompany !== null) expect(visible).toContain(account.defaultCompany)
    }
  })

  it('are found by address and listed one per line', () => {
    expect(demoAccount('viewer@acme.example').accessLevel).toBe(1)
    expect(() => demoAccount('nobody@acme.example')).toThrow()
    const lines = formatDemoAccounts().split('\n')
    expect(lines).toHaveLength(DEMO_ACCOUNTS.length + DEMO_EMAIL_KEYS.length)
    for (const account of DEMO_ACCOUNTS) expect(lines.some((line) => line.includes(account.email))).toBe(true)
    for (const key of DEMO_EMAIL_KEYS) expect(lines.some((line) => line.includes(key.example) && line.includes(key.role))).toBe(true)
  })
})

describe('demo email keys', () => {
  it('open an address without an account to a company that exists', () => {
    const slugs = new Set(DEMO_COMPANIES.map((c) => c.slug))
    for (const key of DEMO_EMAIL_KEYS) {
      expect(slugs.has(key.company)).toBe(true)
      expect(key.match).toBe(key.match.toLowerCase())
      expect(key.example.endsWith(key.match) || key.example === key.match).toBe(true)
      expect(DEMO_ACCOUNTS.some((a) => a.email === key.example)).toBe(false)
      expect(key.userType).toBe(key.accessLevel >= 5 ? 'analyst' : 'client')
    }
  })

  it('include a domain key for a level-1 client of Initech', () => {
    expect(DEMO_EMAIL_KEYS).toContainEqual(
      expect.objectContaining({ match: '@initech.example', company: 'initech', accessLevel: 1, userType: 'client' }),
    )
  })
})
