import { describe, expect, it } from 'vitest'
import { allCompanyFlags, type Access } from './access.ts'
import { OPEN_STATUSES, withCves } from './findings.ts'
import { findingIntel } from './vuln-intel.ts'
import { findingDocument, SAMPLE_CVE_INTEL } from '../../tests/builders.ts'
import {
  findingSearchRecord,
  findingObjectID,
  findingTextMatcher,
  searchWords,
  findingsFacetFilters,
  findingsKeyFilter,
  findingsSortIndex,
  searchableServices,
  FINDING_SORTS,
  FINDINGS_INDEX,
  FINDINGS_INDEX_NAMES,
  FINDINGS_INDEX_SETTINGS,
  FINDINGS_INDEX_SETTINGS_LIST,
  FINDING_SEARCHABLE_ATTRIBUTES,
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

  it('filters to the known exploited by a facet and sorts the likeliest to be exploited first by a replica', () => {
    expect(FINDINGS_INDEX_SETTINGS.attributesForFaceting).toContain('kev')
    expect(findingsFacetFilters({ service: 'network', kev: true }).at(-1)).toEqual(['kev:true'])
    expect(findingsFacetFilters({ service: 'network', kev: false })).toEqual(findingsFacetFilters({ service: 'network' }))
    const replicas = Object.fromEntries(FINDINGS_INDEX_SETTINGS_LIST)
    expect(replicas[findingsSortIndex('epss')]?.customRanking).toEqual(['desc(epss)', 'desc(severityRank)', 'desc(lastSeenAt)'])
    expect(replicas[findingsSortIndex('-epss')]?.customRanking).toEqual(['asc(epss)', 'desc(severityRank)', 'desc(lastSeenAt)'])
  })

  it("gives each record its finding's KEV membership and highest EPSS score, none without intelligence", () => {
    const intel = findingIntel(['CVE-2021-44228'], (cve) => SAMPLE_CVE_INTEL[cve], 1)
    const finding = { id: 'f1', ...findingDocument('network', { ...withCves(['CVE-2021-44228']), intel }) }
    expect(findingSearchRecord('acme', finding)).toMatchObject({ kev: true, epss: 0.9436, epssPercentile: 0.9996 })
    expect(findingSearchRecord('acme', { id: 'f2', ...findingDocument('network') })).toMatchObject({
      kev: false,
      epss: null,
      epssPercentile: null,
    })
  })
})

describe('the text search', () => {
  const finding = {
    title: 'Reflected cross-site scripting in Sécurité search',
    asset: 'https://acme.example/login?next=/account',
    tags: ['owasp-a03', 'pci'],
    cwe: ['CWE-79'],
    templateSlug: 'xss-reflected',
  }
  const matches = (query: string) => findingTextMatcher(query)(finding)

  it('splits words on anything but letters and digits, ignoring case and accents', () => {
    expect(searchWords('Cross-site  Scripting (XSS)')).toEqual(['cross', 'site', 'scripting', 'xss'])
    expect(searchWords('acme.example/login?next=/account')).toEqual(['acme', 'example', 'login', 'next', 'account'])
    expect(searchWords('Sécurité, ÇA+va|x\ty')).toEqual(['securite', 'ca', 'va', 'x', 'y'])
    expect(searchWords(' -- ')).toEqual([])
  })

  it('matches when every query word begins a word of the title, asset, tags, CWE or template', () => {
    for (const query of [
      'scrip',
      'site',
      'SCRIPTING reflected',
      'acme.example/login',
      'login acme',
      'CWE-79',
      'cwe 7',
      'owasp',
      'a03',
      'xss-refl',
      'securite',
      'Sécu',
      '',
    ])
      expect(matches(query), query).toBe(true)
  })

  it('does not match inside a word, with a typo, or when one word matches nothing', () => {
    for (const query of ['ripting', 'scriptng', 'CWE-89', 'xss sql', 'ecurite', 'example.org']) expect(matches(query), query).toBe(false)
  })

  it('looks in no other field', () => {
    expect(findingTextMatcher('pci')({ ...finding, tags: [] })).toBe(false)
    expect(findingTextMatcher('xss')({ ...finding, templateSlug: undefined })).toBe(false)
  })

  it('is the rule the index is given: every searchable attribute, prefixes for every word, no typos', () => {
    expect(FINDINGS_INDEX_SETTINGS).toMatchObject({
      searchableAttributes: [...FINDING_SEARCHABLE_ATTRIBUTES],
      queryType: 'prefixAll',
      typoTolerance: false,
    })
    // A replica keeps the settings it was created with: each one is given the rule too.
    for (const [, settings] of FINDINGS_INDEX_SETTINGS_LIST)
      expect(settings).toMatchObject({ queryType: 'prefixAll', typoTolerance: false })
  })
})
