import { describe, expect, it } from 'vitest'
import { allCompanyFlags, type Access } from './access.ts'
import { OPEN_STATUSES } from './findings.ts'
import {
  alphabeticalOrder,
  findingObjectID,
  findingsFacetFilters,
  findingsKeyFilter,
  findingsSortIndex,
  searchableServices,
  FINDING_SORTS,
  FINDINGS_INDEX,
  FINDINGS_INDEX_NAMES,
  FINDINGS_INDEX_SETTINGS,
  FINDINGS_INDEX_SETTINGS_LIST,
} from './findings-search.ts'

const viewer: Access = { accessLevel: 1, userType: 'client', servicesEnabled: ['dast'] }
const manager: Access = { accessLevel: 2, userType: 'client' }
const senior: Access = { accessLevel: 7, userType: 'analyst' }

describe('findings search keys', () => {
  it('keep a person to one company and the services whose results they may see', () => {
    expect(findingsKeyFilter('acme', ['dast', 'network'])).toBe('company:"acme" AND (service:"dast" OR service:"network")')
    expect(findingsKeyFilter('acme', [])).toBeNull()
  })

  it('leave out services with stats only, and services the person does not have', () => {
    const statsOnly = { ...allCompanyFlags(false), enableViewCloudScanStats: true, enableDast: true, enableViewResultsNetwork: true }
    expect(searchableServices(manager, statsOnly)).toEqual(['dast', 'network'])
    expect(searchableServices(viewer, statsOnly)).toEqual(['dast'])
    expect(searchableServices(viewer, allCompanyFlags(false))).toEqual([])
    expect(searchableServices(senior, allCompanyFlags(false))).toEqual(['projectmariana', 'password_cracking', 'dast', 'network', 'cloud'])
  })

  it('make company and service filterable, since the keys filter on them', () => {
    expect(FINDINGS_INDEX_SETTINGS.attributesForFaceting).toEqual(expect.arrayContaining(['filterOnly(company)', 'filterOnly(service)']))
  })

  it('give records ids that name the company, as fingerprints repeat across companies', () => {
    expect(findingObjectID('acme', 'f1')).not.toBe(findingObjectID('globex', 'f1'))
  })
})

describe('the findings table over the index', () => {
  it('orders titles and assets as numbers that sort as the text does, on its first 30 characters', () => {
    const texts = [
      'Banner disclosure',
      'banner',
      'Cross-site scripting',
      'Ça va',
      'https://a.example/x',
      'https://a.example/y',
      '10.0.0.2',
      'z',
    ]
    const key = (text: string) => alphabeticalOrder(text)
    const compare = (a: string, b: string) => {
      const [x, y] = [key(a), key(b)]
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
    }
    expect([...texts].sort(compare)).toEqual([
      '10.0.0.2',
      'banner',
      'Banner disclosure',
      'Ça va',
      'Cross-site scripting',
      'https://a.example/x',
      'https://a.example/y',
      'z',
    ])
    expect(alphabeticalOrder('a'.repeat(30) + 'b')).toEqual(alphabeticalOrder('a'.repeat(30) + 'c'))
    for (const part of alphabeticalOrder('z'.repeat(30))) expect(Number.isSafeInteger(part)).toBe(true)
  })

  it('filters to the service, the open statuses unless others are chosen, OR within a facet and AND across', () => {
    expect(findingsFacetFilters({ service: 'dast' })).toEqual([['service:dast'], OPEN_STATUSES.map((s) => `status:${s}`)])
    expect(
      findingsFacetFilters({ service: 'dast', severity: ['high', 'low'], status: ['fixed'], asset: ['-weird'], tag: ['xss'] }),
    ).toEqual([['service:dast'], ['severity:high', 'severity:low'], ['status:fixed'], ['asset:\\-weird'], ['tags:xss']])
    // A facet's own counts leave its choice out; statuses then count every status.
    expect(findingsFacetFilters({ service: 'dast', severity: ['high'] }, 'severity')).toEqual([
      ['service:dast'],
      OPEN_STATUSES.map((s) => `status:${s}`),
    ])
    expect(findingsFacetFilters({ service: 'dast', status: ['fixed'] }, 'status')).toEqual([['service:dast']])
  })

  it('answers every sort from a virtual replica ordered strictly by the column, and lets the keys reach them all', () => {
    const [first, ...replicas] = FINDINGS_INDEX_SETTINGS_LIST
    expect(first?.[0]).toBe(FINDINGS_INDEX)
    expect(first?.[1].replicas).toEqual(FINDING_SORTS.map((sort) => `virtual(${findingsSortIndex(sort)})`))
    expect(replicas).toHaveLength(FINDING_SORTS.length)
    for (const [, replica] of replicas) expect(replica.relevancyStrictness).toBe(0)
    expect(Object.fromEntries(replicas)[findingsSortIndex('-lastSeen')]?.customRanking).toEqual(['desc(lastSeenAt)', 'desc(severityRank)'])
    expect(Object.fromEntries(replicas)[findingsSortIndex('severity')]?.customRanking).toEqual(['desc(severityRank)', 'desc(lastSeenAt)'])
    expect(FINDINGS_INDEX_NAMES).toEqual([FINDINGS_INDEX, ...FINDING_SORTS.map(findingsSortIndex)])
  })
})
