// The links the domain writes (notifications, dashboard lines, the overview) are places the
// report's route reads back exactly: its search schema over the router's parseSearch.
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { findingLink, reportLink } from '#domain/report-links.ts'
import { parseSearch } from '~/core/search-params'
import { FindingsSearchSchema } from '../findings/findings-search-params'
import { ScanChoiceSchema } from './scan-choice'

const RouteSearch = v.object({ ...FindingsSearchSchema.entries, ...ScanChoiceSchema.entries })

function landing(link: string) {
  const url = new URL(link, 'https://bulwark.invalid')
  return { path: url.pathname, search: v.parse(RouteSearch, parseSearch(url.search)) }
}

describe('reportLink', () => {
  it('is the plain report without a place', () => {
    expect(reportLink('dast')).toBe('/reports/dast')
    expect(landing(reportLink('dast')).search.scan).toBeUndefined()
  })

  it('lands on the scan, filters and order it names', () => {
    const link = reportLink('network', { scan: 'network-2026-11', severity: ['critical', 'high'], status: ['open'], sort: 'sla' })
    expect(link).toBe('/reports/network?scan=network-2026-11&severity=critical&severity=high&status=open&sort=sla')
    expect(landing(link)).toEqual({
      path: '/reports/network',
      search: expect.objectContaining({ scan: 'network-2026-11', severity: ['critical', 'high'], status: ['open'], sort: 'sla' }),
    })
  })

  it('keeps a scan id that looks like a number as that id', () => {
    expect(landing(reportLink('dast', { scan: '2024' })).search.scan).toBe('2024')
    expect(landing(reportLink('dast', { scan: 'true' })).search.scan).toBe('true')
  })
})

describe('findingLink', () => {
  it("is the finding's page", () => {
    expect(findingLink('dast', 'f/1')).toBe('/reports/dast/f%2F1')
  })
})
