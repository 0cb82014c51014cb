import cvssCalculator from 'ae-cvss-calculator'
import { describe, expect, it } from 'vitest'
import type { FindingTemplate, Severity } from '#domain/finding-template.ts'
import { services } from '#domain/services.ts'
import { exportTemplatesJson } from '#domain/template-transfer.ts'
import { DEMO_FINDING_TEMPLATES, loadDemoTemplateFiles, templatesOfExport } from './finding-templates.ts'

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info']

// CVSS qualitative ratings (identical in 3.1 and 4.0).
const ratingOf = (score: number): Severity | 'none' =>
  score >= 9 ? 'critical' : score >= 7 ? 'high' : score >= 4 ? 'medium' : score >= 0.1 ? 'low' : 'none'

const scoreOf = (vector: string) => {
  const calculator = vector.startsWith('CVSS:4.0/') ? new cvssCalculator.Cvss4P0(vector) : new cvssCalculator.Cvss3P1(vector)
  return {
    complete: calculator.isBaseFullyDefined(),
    normalised: calculator.toString(),
    base: calculator.calculateScores().base,
  }
}

const templates = DEMO_FINDING_TEMPLATES
const label = (t: FindingTemplate) => t.slug
const countBy = <K extends string>(keys: K[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>())

describe('demo finding templates', () => {
  it('hold at least 220 templates', () => {
    expect(templates.length).toBeGreaterThanOrEqual(220)
  })

  it("are 348 templates in one file per service, each template listing its file's service", () => {
    const files = loadDemoTemplateFiles()
    expect(files.map((file) => file.service).sort()).toEqual(services.map((s) => s.id).sort())
    expect(files.flatMap((file) => file.templates)).toEqual(templates)
    expect(templates).toHaveLength(348)
    for (const file of files) {
      expect(file.templates.length, file.fileName).toBeGreaterThan(0)
      for (const t of file.templates) expect(t.services, `${file.fileName}: ${label(t)}`).toContain(file.service)
    }
  })

  it("are files of the product's JSON export: exporting what the importer read gives each file back", () => {
    for (const file of loadDemoTemplateFiles()) expect(exportTemplatesJson(file.templates), file.fileName).toBe(file.text)
  })

  it('are stamped in the order the files list them, each edited after it was created', () => {
    for (const [index, t] of templates.entries()) {
      expect(t.updatedAt, label(t)).toBeGreaterThanOrEqual(t.createdAt)
      if (index > 0) expect(t.createdAt, label(t)).toBeGreaterThan(templates[index - 1]!.createdAt)
    }
  })

  it('have unique, well-formed slugs and unique titles', () => {
    for (const t of templates) {
      expect(t.slug, label(t)).toMatch(KEBAB)
      expect(t.slug.length, label(t)).toBeLessThanOrEqual(80)
      expect(t.title.trim(), label(t)).toBe(t.title)
      expect(t.title, label(t)).not.toBe('')
    }
    expect(new Set(templates.map((t) => t.slug)).size).toBe(templates.length)
    expect(new Set(templates.map((t) => t.title.toLowerCase())).size).toBe(templates.length)
  })

  it('name known services, and cover every service and severity', () => {
    const serviceIds: string[] = services.map((s) => s.id)
    for (const t of templates) {
      expect(t.services.length, label(t)).toBeGreaterThan(0)
      expect(new Set(t.services).size, label(t)).toBe(t.services.length)
      for (const service of t.services) expect(serviceIds, label(t)).toContain(service)
      expect(SEVERITIES, label(t)).toContain(t.severity)
    }
    const perService = countBy<string>(templates.flatMap((t) => t.services))
    for (const id of serviceIds) expect(perService.get(id) ?? 0, id).toBeGreaterThanOrEqual(30)
    const perSeverity = countBy(templates.map((t) => t.severity))
    for (const severity of SEVERITIES) expect(perSeverity.get(severity) ?? 0, severity).toBeGreaterThan(0)
    // Few criticals; medium and low make up the bulk.
    const count = (s: Severity) => perSeverity.get(s) ?? 0
    expect(count('critical')).toBeLessThan(count('high'))
    expect(count('critical')).toBeLessThan(count('medium'))
    expect(count('medium') + count('low')).toBeGreaterThan(templates.length * 0.45)
  })

  it('carry complete base-metric CVSS vectors whose rating matches the severity; none for info', () => {
    for (const t of templates) {
      if (t.severity === 'info') {
        expect(t.cvss, label(t)).toBeNull()
        continue
      }
      const vector = t.cvss?.vector
      expect(vector, label(t)).toMatch(/^CVSS:(3\.1|4\.0)\//)
      if (!vector) continue
      const { complete, normalised, base } = scoreOf(vector)
      expect(complete, `${label(t)}: ${vector}`).toBe(true)
      // Round-trips: base metrics only, canonical order, no unknown values.
      expect(normalised, label(t)).toBe(vector)
      expect(base, `${label(t)}: ${vector}`).toBeTypeOf('number')
      expect(t.cvss?.score, `${label(t)}: ${vector}`).toBe(base)
      expect(ratingOf(base ?? 0), `${label(t)}: ${vector} scores ${base}`).toBe(t.severity)
    }
  })

  it('mix CVSS versions: mostly 3.1, about a quarter 4.0', () => {
    const vectors = templates.flatMap((t) => (t.cvss ? [t.cvss.vector] : []))
    const v4 = vectors.filter((v) => v.startsWith('CVSS:4.0/')).length
    expect(v4 / vectors.length).toBeGreaterThanOrEqual(0.15)
    expect(v4 / vectors.length).toBeLessThanOrEqual(0.35)
  })

  it('use well-formed CWE ids', () => {
    for (const t of templates) {
      for (const cwe of t.cwe) expect(cwe, label(t)).toMatch(/^CWE-[1-9]\d*$/)
      expect(new Set(t.cwe).size, label(t)).toBe(t.cwe.length)
    }
    expect(templates.filter((t) => t.cwe.length > 0).length).toBeGreaterThan(templates.length * 0.9)
  })

  it('reference https URLs', () => {
    for (const t of templates) {
      expect(t.references.length, label(t)).toBeGreaterThan(0)
      expect(new Set(t.references).size, label(t)).toBe(t.references.length)
      for (const reference of t.references) {
        expect(URL.canParse(reference), `${label(t)}: ${reference}`).toBe(true)
        expect(new URL(reference).protocol, `${label(t)}: ${reference}`).toBe('https:')
        expect(reference, label(t)).not.toMatch(/\s/)
      }
    }
  })

  it('draw 1–8 kebab-case tags each from a shared vocabulary that repeats', () => {
    for (const t of templates) {
      expect(t.tags.length, label(t)).toBeGreaterThanOrEqual(1)
      expect(t.tags.length, label(t)).toBeLessThanOrEqual(8)
      expect(new Set(t.tags).size, label(t)).toBe(t.tags.length)
      for (const tag of t.tags) expect(tag, label(t)).toMatch(KEBAB)
    }
    const uses = countBy(templates.flatMap((t) => t.tags))
    expect(uses.size).toBeLessThanOrEqual(60)
    const rare = [...uses].filter(([, n]) => n < 3).map(([tag]) => tag)
    expect(rare.length, `tags used fewer than 3 times: ${rare.join(', ')}`).toBeLessThanOrEqual(uses.size * 0.2)
  })

  it('write distinct text in every template', () => {
    for (const field of ['description', 'impact', 'remediation'] as const) {
      for (const t of templates) {
        expect(t[field].trim(), `${label(t)}.${field}`).toBe(t[field])
        expect(t[field].length, `${label(t)}.${field}`).toBeGreaterThan(10)
      }
      const texts = templates.map((t) => t[field].toLowerCase())
      expect(new Set(texts).size, field).toBe(templates.length)
    }
  })

  it('are mostly ready, with some drafts and a few deprecated', () => {
    const perStatus = countBy(templates.map((t) => t.status))
    expect([...perStatus.keys()].sort()).toEqual(['deprecated', 'draft', 'ready'])
    const share = (status: FindingTemplate['status']) => (perStatus.get(status) ?? 0) / templates.length
    expect(share('ready')).toBeGreaterThan(0.75)
    expect(share('draft')).toBeGreaterThanOrEqual(0.05)
    expect(share('draft')).toBeLessThanOrEqual(0.15)
    expect(share('deprecated')).toBeGreaterThanOrEqual(0.02)
    expect(share('deprecated')).toBeLessThanOrEqual(0.08)
  })
})

describe('reading a demo template file', () => {
  const stamps = { createdAt: '2025-06-02T08:00:00.000Z', updatedAt: '2025-06-03T08:00:00.000Z', updatedBy: 'senior@sectest.example' }
  const exportOf = (...rows: Record<string, unknown>[]) =>
    JSON.stringify({ format: 'bulwark.finding-templates', version: 1, templates: rows.map((row) => ({ ...row, ...stamps })) })
  const xss = { slug: 'reflected-xss', title: 'Reflected XSS', severity: 'medium', cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N' }

  it('reads each template as the importer does, stamped as the file says', () => {
    const [template] = templatesOfExport({ name: 'dast.json', text: exportOf(xss) }, [])
    expect(template).toMatchObject({
      slug: 'reflected-xss',
      cvss: { version: '3.1', score: 6.1 },
      status: 'draft',
      updatedBy: stamps.updatedBy,
    })
    expect(template?.createdAt).toBe(Date.parse(stamps.createdAt))
    expect(template?.updatedAt).toBe(Date.parse(stamps.updatedAt))
  })

  it('stops at a template the importer refuses, naming the file and the template', () => {
    expect(() =>
      templatesOfExport({ name: 'dast.json', text: exportOf(xss, { ...xss, slug: 'bad-cvss', cvss: 'CVSS:3.1/AV:N' }) }, []),
    ).toThrow(/^dast\.json, template 2 \(bad-cvss\): cvss: /)
    expect(() => templatesOfExport({ name: 'dast.json', text: '{"format":"other"}' }, [])).toThrow(/^dast\.json: The file is not an export/)
  })

  it('stops at a slug an earlier file already holds', () => {
    const [earlier] = templatesOfExport({ name: 'dast.json', text: exportOf(xss) }, [])
    expect(() => templatesOfExport({ name: 'network.json', text: exportOf({ ...xss, title: 'Other' }) }, [earlier!])).toThrow(
      /^network\.json, template 1 \(reflected-xss\): its slug is already in the library/,
    )
  })

  it("stops at a template without the export's stamps", () => {
    const text = JSON.stringify({ format: 'bulwark.finding-templates', version: 1, templates: [{ ...xss, updatedBy: 'x' }] })
    expect(() => templatesOfExport({ name: 'dast.json', text }, [])).toThrow(/^dast\.json: /)
  })
})
