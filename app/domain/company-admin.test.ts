import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { allCompanyFlags } from './access.ts'
import { CreateCompanyRequestSchema, slugCandidates, slugFromName, UpdateCompanyRequestSchema } from './company-admin.ts'

describe('company slugs', () => {
  it('derives a slug from the name', () => {
    expect(slugFromName('Acme Corp.')).toBe('acme-corp')
    expect(slugFromName('  Société Générale & Fils ')).toBe('societe-generale-fils')
    expect(slugFromName('株式会社')).toBe('company')
    expect(slugFromName('x'.repeat(50))).toHaveLength(40)
    expect(slugFromName(`${'a'.repeat(39)} b`)).toBe('a'.repeat(39))
  })

  it('tries numbered slugs after the name’s own', () => {
    const candidates = slugCandidates('Acme')
    expect(candidates.slice(0, 3)).toEqual(['acme', 'acme-2', 'acme-3'])
    expect(new Set(candidates).size).toBe(20)
  })
})

describe('company requests', () => {
  it('validates a new company, its switches and its scope', () => {
    const request = { companyName: ' Wayne ', flags: allCompanyFlags(false), scanScope: [{ kind: 'domain', value: 'Wayne.example' }] }
    expect(v.parse(CreateCompanyRequestSchema, request)).toEqual({
      ...request,
      companyName: 'Wayne',
      scanScope: [{ kind: 'domain', value: 'wayne.example' }],
    })
    expect(v.safeParse(CreateCompanyRequestSchema, { ...request, companyName: '' }).issues?.[0].message).toBe('Enter the company name.')
    expect(v.safeParse(CreateCompanyRequestSchema, { ...request, flags: { enableDast: true } }).success).toBe(false)
  })

  it('needs something to change', () => {
    expect(v.safeParse(UpdateCompanyRequestSchema, { company: 'acme', flags: {} }).issues?.[0].message).toBe('Change at least one thing.')
    expect(v.safeParse(UpdateCompanyRequestSchema, { company: 'acme', flags: { enableDast: false } }).success).toBe(true)
  })
})
