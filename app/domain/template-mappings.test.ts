import { describe, expect, it } from 'vitest'
import { suggestTemplates, templateMappingId, type TemplateChoice } from './template-mappings.ts'

const templates: TemplateChoice[] = [
  { slug: 'reflected-xss', title: 'Reflected cross-site scripting', cwe: ['CWE-79'] },
  { slug: 'sql-injection', title: 'SQL injection', cwe: ['CWE-89'] },
  { slug: 'missing-csp', title: 'Content Security Policy header missing', cwe: ['CWE-693'] },
  { slug: 'weak-tls', title: 'Weak TLS ciphers', cwe: [] },
]

describe('suggestTemplates', () => {
  it('puts a template sharing the CWE first, then those sharing words with the title', () => {
    const finding = { title: 'Content Security Policy (CSP) Header Not Set', ruleId: '10038', cwe: ['693'] }
    expect(suggestTemplates(finding, templates).map((t) => t.slug)).toEqual(['missing-csp'])
    const cross = { title: 'Cross Site Scripting (Reflected)', ruleId: '40012', cwe: ['CWE-79'] }
    expect(suggestTemplates(cross, templates)[0]?.slug).toBe('reflected-xss')
  })

  it('reads the rule id as words too, and suggests nothing when nothing is shared', () => {
    expect(suggestTemplates({ title: 'Finding', ruleId: 'weak-tls-ciphers', cwe: [] }, templates).map((t) => t.slug)).toEqual(['weak-tls'])
    expect(suggestTemplates({ title: 'Open port', ruleId: 'port-22', cwe: ['CWE-1'] }, templates)).toEqual([])
  })
})

describe('templateMappingId', () => {
  it('is the same for a rule whatever its case or spaces, and differs per service', async () => {
    expect(await templateMappingId('dast', ' 10038 ')).toBe(await templateMappingId('dast', '10038'))
    expect(await templateMappingId('dast', 'Nuclei-Template')).toBe(await templateMappingId('dast', 'nuclei-template'))
    expect(await templateMappingId('network', '10038')).not.toBe(await templateMappingId('dast', '10038'))
  })
})
