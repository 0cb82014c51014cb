import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { catalogueEntryFromDocument, catalogueFrom, defaultCompanyFlags, SaveServiceRequestSchema } from './service-catalogue.ts'
import { DEFAULT_SLA_POLICY } from './sla.ts'

describe('the service catalogue', () => {
  it('reads a service without a document as the built-in entry: its name and the platform SLA defaults', () => {
    expect(catalogueEntryFromDocument('dast', undefined)).toEqual({
      id: 'dast',
      label: 'DAST',
      description: '',
      defaultEnabled: false,
      sla: DEFAULT_SLA_POLICY,
    })
  })

  it('takes each stored field that reads, and the built-in value for each that does not', () => {
    const entry = catalogueEntryFromDocument('network', {
      label: 'Network scans',
      defaultEnabled: true,
      sla: { critical: 3, high: null, medium: 'soon', low: 0 },
    })
    expect(entry).toMatchObject({ label: 'Network scans', defaultEnabled: true })
    expect(entry.sla).toEqual({ ...DEFAULT_SLA_POLICY, critical: 3, high: null })
  })

  it('starts a new company with the switches of the services new companies get, never DAST triggering', () => {
    const catalogue = catalogueFrom(
      new Map([
        ['projectmariana', { defaultEnabled: true }],
        ['dast', { defaultEnabled: true }],
      ]),
    )
    expect(defaultCompanyFlags(catalogue)).toEqual({
      enableViewProjectMarianaResults: true,
      enableViewProjectMarianaStats: true,
      enableDast: true,
      enableDastTriggering: false,
      enableViewResultsNetwork: false,
      enableViewCloudScanStats: false,
      enableViewCloudScanResults: false,
      enableViewResultsPasswordCracking: false,
    })
  })

  it('validates a change with the messages the page shows', () => {
    const message = (request: unknown) => v.safeParse(SaveServiceRequestSchema, request).issues?.[0].message
    expect(message({ service: 'dast', sla: { critical: 0 } })).toBe(
      'A remediation target is a whole number of days from 1 to 730, or none.',
    )
    expect(message({ service: 'dast', sla: { critical: 2.5 } })).toBe(
      'A remediation target is a whole number of days from 1 to 730, or none.',
    )
    expect(message({ service: 'dast', label: ' ' })).toBe('Enter the service name.')
    expect(message({ service: 'dast' })).toBe('Change at least one thing.')
    expect(v.safeParse(SaveServiceRequestSchema, { service: 'dast', sla: { info: null } }).success).toBe(true)
  })
})
