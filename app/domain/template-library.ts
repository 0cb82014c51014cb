// The library of finding templates as Firestore stores it (DESIGN.md section 5): the documents
// finding_templates/{slug}, the tag counters finding_tags/{tag} and their references
// finding_tags/{tag}/tags/{slug}, and the contracts of the callables that delete and import
// templates. The browser, the functions and the seed read and write through these helpers.
import * as v from 'valibot'
import { TemplateInputSchema, type FindingTemplate, type TemplateInput } from './finding-template.ts'

export const TEMPLATES_COLLECTION = 'finding_templates'
export const TAGS_COLLECTION = 'finding_tags'

export { mayEditTemplates } from './access.ts'

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

/** A Firestore Timestamp of either SDK. */
interface TimestampLike {
  toMillis(): number
}

const isTimestamp = (value: unknown): value is TimestampLike =>
  typeof value === 'object' && value !== null && 'toMillis' in value && typeof value.toMillis === 'function'

const TimestampSchema = v.pipe(
  v.custom<TimestampLike>(isTimestamp, 'Expected a timestamp'),
  v.transform((timestamp) => timestamp.toMillis()),
)

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

// The callables' contracts, light enough for the browser's call() (template-library-calls.ts).
export {
  DeleteTemplateRequestSchema,
  DeleteTemplateResponseSchema,
  ImportTemplatesRequestSchema,
  ImportTemplatesResponseSchema,
  TEMPLATE_IMPORT_MAX_BYTES,
  TemplateImportRowSchema,
} from './template-library-calls.ts'
export type {
  DeleteTemplateRequest,
  DeleteTemplateResponse,
  ImportTemplatesRequest,
  ImportTemplatesResponse,
  TemplateImportRow,
} from './template-library-calls.ts'
