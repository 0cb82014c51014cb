import cvssCalculator from 'ae-cvss-calculator'
import { describe, expect, it } from 'vitest'
import { services } from '#domain/services.ts'
import { DEMO_FINDING_TEMPLATES, type DemoFindingTemplate, type FindingSeverity } from './finding-templates.ts'

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const SEVERITIES: readonly FindingSeverity[] = ['critical', 'high', 'medium', 'low', 'info']

// CVSS qualitative ratings (identical in 3.1 and 4.0).
const ratingOf = (score: number): FindingSeverity | 'none' =>
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
const label = (t: DemoFindingTemplate) => t.slug
const countBy = <K extends string>(keys: K[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>())

describe('demo finding templates', () => {
  it('hold at least 220 templates', () => {
    expect(templates.length).toBeGreaterThanOrEqual(220)
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
    const count = (s: FindingSeverity) => perSeverity.get(s) ?? 0
    expect(count('critical')).toBeLessThan(count('high'))
    expect(count('critical')).toBeLessThan(count('medium'))
    expect(count('medium') + count('low')).toBeGreaterThan(templates.length * 0.45)
  })

  it('carry complete base-metric CVSS vectors whose rating matches the severity; none for info', () => {
    for (const t of templates) {
      if (t.severity === 'info') {
        expect(t.cvssVector, label(t)).toBeNull()
        continue
      }
      const vector = t.cvssVector
      expect(vector, label(t)).toMatch(/^CVSS:(3\.1|4\.0)\//)
      if (!vector) continue
      const { complete, normalised, base } = scoreOf(vector)
      expect(complete, `${label(t)}: ${vector}`).toBe(true)
      // Round-trips: base metrics only, canonical order, no unknown values.
      expect(normalised, label(t)).toBe(vector)
      expect(base, `${label(t)}: ${vector}`).toBeTypeOf('number')
      expect(ratingOf(base ?? 0), `${label(t)}: ${vector} scores ${base}`).toBe(t.severity)
    }
  })

  it('mix CVSS versions: mostly 3.1, about a quarter 4.0', () => {
    const vectors = templates.flatMap((t) => (t.cvssVector ? [t.cvssVector] : []))
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
    const share = (status: DemoFindingTemplate['status']) => (perStatus.get(status) ?? 0) / templates.length
    expect(share('ready')).toBeGreaterThan(0.75)
    expect(share('draft')).toBeGreaterThanOrEqual(0.05)
    expect(share('draft')).toBeLessThanOrEqual(0.15)
    expect(share('deprecated')).toBeGreaterThanOrEqual(0.02)
    expect(share('deprecated')).toBeLessThanOrEqual(0.08)
  })
})
