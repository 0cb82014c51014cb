import { describe, expect, it } from 'vitest'
import { exportFinding, exportFindings, T0 } from '../../../../tests/unit/export-fixtures.ts'
import { exportFiltersOf, filteredFindings } from './filtered-findings'

const all = exportFindings('network', 20)

describe('filteredFindings', () => {
  it('keeps every finding, most severe first, without filters', () => {
    const out = filteredFindings(all, {}, T0)
    expect(out).toHaveLength(20)
    expect(out.map((f) => f.severity).slice(0, 4)).toEqual(['critical', 'critical', 'critical', 'critical'])
  })

  it('applies the facets and the text search as the table does', () => {
    const out = filteredFindings(all, { severity: ['high', 'critical'], status: ['open', 'in_remediation'], q: ' TLS ' }, T0)
    // Every fifth finding from the second is a high "Outdated TLS" in remediation.
    expect(out.map((f) => f.id)).toEqual(['f00001', 'f00006', 'f00011', 'f00016'])
    const tagged = filteredFindings([...all, exportFinding('network', 99, { tags: ['pci'] })], { tag: ['pci'] }, T0)
    expect(tagged.map((f) => f.id)).toEqual(['f00099'])
    expect(filteredFindings(all, { asset: ['10.0.0.3:443'] }, T0).map((f) => f.id)).toEqual(['f00003'])
  })

  it('follows the chosen order', () => {
    const byTitle = filteredFindings(all, { sort: 'title' }, T0).map((f) => f.title)
    expect(byTitle).toEqual([...byTitle].sort(new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare))
    const newest = filteredFindings(all, { sort: '-lastSeen' }, T0)
    expect(newest).toHaveLength(20)
  })

  it('records the filters, not the grouping or the order', () => {
    expect(exportFiltersOf({ severity: ['high'], q: ' sql ', group: 'asset', sort: 'title' })).toEqual({ severity: ['high'], q: 'sql' })
    expect(exportFiltersOf({})).toEqual({})
  })
})
