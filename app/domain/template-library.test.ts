import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { LEVEL, mayEditTemplates } from './access.ts'
import type { TemplateInput } from './finding-template.ts'
import { DeleteTemplateRequestSchema, ImportTemplatesRequestSchema, TEMPLATE_IMPORT_MAX_BYTES } from './template-library-calls.ts'
import {
  storedTags,
  tagCounterPath,
  tagReferencePath,
  templateContentDocument,
  templateFromDocument,
  templatePath,
} from './template-library.ts'

const template: TemplateInput = {
  slug: 'weak-tls',
  title: 'Weak TLS configuration',
  severity: 'medium',
  cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 3.7 },
  cwe: ['CWE-326'],
  description: 'The service accepts outdated protocol versions.',
  impact: '',
  remediation: 'Accept TLS 1.2 and later only.',
  references: [],
  tags: ['tls'],
  services: ['network'],
  status: 'ready',
}

const at = (millis: number) => ({ toMillis: () => millis })

describe('template documents', () => {
  it('hold the content without the slug, and without cvss when there is no vector', () => {
    const { slug: _slug, ...content } = template
    expect(templateContentDocument(template)).toEqual(content)
    expect(templateContentDocument({ ...template, cvss: null })).not.toHaveProperty('cvss')
  })

  it('read back as the template, times in epoch milliseconds', () => {
    const document = {
      ...templateContentDocument({ ...template, cvss: null }),
      createdAt: at(1000),
      updatedAt: at(2000),
      updatedBy: 'senior@sectest.example',
    }
    expect(templateFromDocument('weak-tls', document)).toEqual({
      ok: true,
      template: { ...template, cvss: null, createdAt: 1000, updatedAt: 2000, updatedBy: 'senior@sectest.example' },
    })
  })

  it('do not read when a field breaks the template rules or a time is missing', () => {
    const document = { ...templateContentDocument(template), createdAt: at(1000), updatedAt: at(2000), updatedBy: 'senior@sectest.example' }
    expect(templateFromDocument('weak-tls', { ...document, severity: 'severe' }).ok).toBe(false)
    expect(templateFromDocument('weak-tls', { ...document, cvss: { ...template.cvss, score: 9.9 } }).ok).toBe(false)
    expect(templateFromDocument('weak-tls', { ...document, updatedAt: null }).ok).toBe(false)
    expect(templateFromDocument('weak-tls', undefined).ok).toBe(false)
  })

  it('list their tags, ignoring what is not a tag list', () => {
    expect(storedTags({ tags: ['tls', 7, 'crypto'] })).toEqual(['tls', 'crypto'])
    expect(storedTags({ tags: 'tls' })).toEqual([])
    expect(storedTags(undefined)).toEqual([])
  })

  it('live at the paths of the data model', () => {
    expect([templatePath('weak-tls'), tagCounterPath('tls'), tagReferencePath('tls', 'weak-tls')]).toEqual([
      'finding_templates/weak-tls',
      'finding_tags/tls',
      'finding_tags/tls/tags/weak-tls',
    ])
  })
})

describe('mayEditTemplates', () => {
  it('is analysts of level 7 and above, as the templates page', () => {
    for (const userType of ['client', 'analyst'] as const) {
      for (const accessLevel of Object.values(LEVEL)) {
        expect(mayEditTemplates({ userType, accessLevel })).toBe(userType === 'analyst' && accessLevel >= 7)
      }
    }
    expect(mayEditTemplates(null)).toBe(false)
  })
})

describe('library callables', () => {
  it('delete a template named by its slug', () => {
    expect(v.parse(DeleteTemplateRequestSchema, { slug: ' weak-tls ' })).toEqual({ slug: 'weak-tls' })
    expect(v.is(DeleteTemplateRequestSchema, { slug: 'Weak TLS' })).toBe(false)
  })

  it('import files up to the size limit, counted in bytes', () => {
    const fits = 'a'.repeat(TEMPLATE_IMPORT_MAX_BYTES)
    expect(v.is(ImportTemplatesRequestSchema, { fileName: 'library.csv', text: fits })).toBe(true)
    expect(v.is(ImportTemplatesRequestSchema, { fileName: 'library.csv', text: `${fits.slice(1)}é` })).toBe(false)
    expect(v.is(ImportTemplatesRequestSchema, { fileName: 'library.csv' })).toBe(false)
  })
})
