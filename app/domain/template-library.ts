// The library of finding templates as Firestore stores it: the documents
// finding_templates/{slug}, the tag counters finding_tags/{tag} and their references
// finding_tags/{tag}/tags/{slug}. The browser, the functions and the seed read and write through
// these helpers; the callables' contracts are in template-library-calls.ts.
import * as v from 'valibot'
import { TemplateInputSchema, type FindingTemplate, type TemplateInput } from './finding-template.ts'
import { TimestampSchema } from './stored.ts'

export const TEMPLATES_COLLECTION = 'finding_templates'
export const TAGS_COLLECTION = 'finding_tags'

export const templatePath = (slug: string) => `${TEMPLATES_COLLECTION}/${slug}`
export const tagCounterPath = (tag: string) => `${TAGS_COLLECTION}/${tag}`
export const tagReferencePath = (tag: string, slug: string) => `${TAGS_COLLECTION}/${tag}/tags/${slug}`

/**
 * A template's content as its document holds it: without the slug (the document id), and without
 * a cvss key when it has no vector (the rules take cvss as a map when present). The caller adds
 * createdAt, updatedAt and updatedBy.
 */
export function templateContentDocument(template: TemplateInput): Record<string, unknown> {
  const { slug: _id, cvss, ...content } = template
  return cvss ? { ...content, cvss } : content
}

/** The tags a template document lists; none when it lists nothing readable. */
export function storedTags(data: unknown): string[] {
  const tags = typeof data === 'object' && data !== null && 'tags' in data ? data.tags : undefined
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : []
}

const StoredTemplateSchema = v.object({
  ...v.omit(TemplateInputSchema, ['slug']).entries,
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  updatedBy: v.string(),
})

export type StoredTemplateResult = { ok: true; template: FindingTemplate } | { ok: false; issues: readonly v.BaseIssue<unknown>[] }

/** The template a finding_templates document holds, read with the rules templates are edited by. */
export function templateFromDocument(slug: string, data: unknown): StoredTemplateResult {
  const parsed = v.safeParse(StoredTemplateSchema, data)
  return parsed.success ? { ok: true, template: { slug, ...parsed.output } } : { ok: false, issues: parsed.issues }
}
