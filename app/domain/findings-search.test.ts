import { describe, expect, it } from 'vitest'
import { allCompanyFlags, type Access } from './access.ts'
import { findingObjectID, findingsKeyFilter, searchableServices, FINDINGS_INDEX_SETTINGS } from './findings-search.ts'

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
