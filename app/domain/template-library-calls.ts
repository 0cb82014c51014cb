// The contracts of the template library's callables (#domain/callables.ts): deleting a template,
// importing a file of them, and a key for searching them. Kept apart from template-library.ts,
// whose template rules bring the CVSS and Markdown libraries, and from the modules the first page
// loads: the browser's call() carries every contract, on every page that calls.
import * as v from 'valibot'
import { companySlugSchema } from './company-slug.ts'

/** Lowercase letters and digits in words joined by single hyphens: slugs and tags. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A slug is a document id and a URL segment. */
export const TEMPLATE_SLUG_MAX_LENGTH = 80

/** FNV-1a: a short, stable fingerprint for titles that have no Latin letters or digits. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5
  for (const unit of new TextEncoder().encode(text)) hash = Math.imul(hash ^ unit, 0x01000193) >>> 0
  return hash.toString(36)
}

/**
 * A slug for a new template: the title's Latin letters and digits (accents removed) in words joined
 * by hyphens, cut at a word boundary to fit. The same title always gives the same slug.
 */
export function slugifyTitle(title: string): string {
  const words =
    title
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  let slug = ''
  for (const word of words) {
    const longer = slug === '' ? word : `${slug}-${word}`
    if (longer.length > TEMPLATE_SLUG_MAX_LENGTH) {
      if (slug === '') slug = word.slice(0, TEMPLATE_SLUG_MAX_LENGTH)
      break
    }
    slug = longer
  }
  return slug || `template-${fingerprint(title)}`
}

export const TemplateSlugSchema = v.pipe(
  v.string('Enter a slug'),
  v.trim(),
  v.minLength(1, 'Enter a slug'),
  v.maxLength(TEMPLATE_SLUG_MAX_LENGTH, `Keep the slug to ${TEMPLATE_SLUG_MAX_LENGTH} characters`),
  v.regex(SLUG_PATTERN, 'A slug is lowercase letters and digits joined by single hyphens, like sql-injection'),
)

// --- deleteFindingTemplate

/** `check`: only count the findings that use the template (the dialog says so before anyone presses Delete). */
export const DeleteTemplateRequestSchema = v.strictObject({ slug: TemplateSlugSchema, check: v.optional(v.boolean()) })
export type DeleteTemplateRequest = v.InferOutput<typeof DeleteTemplateRequestSchema>
/** Deleted (or, for a check, how many findings use it); a refusal is an error (failed-precondition, not-found). */
export const DeleteTemplateResponseSchema = v.strictObject({ success: v.literal(true), findings: v.optional(v.number()) })
export type DeleteTemplateResponse = v.InferOutput<typeof DeleteTemplateResponseSchema>

// --- importFindingTemplates

/** The largest file importFindingTemplates reads: a library of thousands of templates. */
export const TEMPLATE_IMPORT_MAX_BYTES = 5 * 1024 * 1024

export const ImportTemplatesRequestSchema = v.strictObject({
  fileName: v.pipe(v.string('Give the file name'), v.maxLength(255, 'Keep the file name to 255 characters')),
  text: v.pipe(
    v.string('Send the file as text'),
    v.maxBytes(TEMPLATE_IMPORT_MAX_BYTES, `Import files up to ${TEMPLATE_IMPORT_MAX_BYTES / 1024 / 1024} MB`),
  ),
})

export type ImportTemplatesRequest = v.InferOutput<typeof ImportTemplatesRequestSchema>

/** What happened to one row of an imported file (template-transfer.ts). */
export const TemplateImportRowSchema = v.object({
  /** JSON: the template's position in the list, from 1. CSV: the row, counting the header as row 1. */
  row: v.number(),
  /** Null when the row gives neither a slug nor a title. */
  slug: v.nullable(v.string()),
  outcome: v.picklist(['created', 'updated', 'unchanged', 'refused']),
  reason: v.optional(v.string()),
})

export type TemplateImportRow = v.InferOutput<typeof TemplateImportRowSchema>

export const ImportTemplatesResponseSchema = v.strictObject({
  success: v.literal(true),
  /** What happened to each row of the file. */
  rows: v.array(TemplateImportRowSchema),
})

export type ImportTemplatesResponse = v.InferOutput<typeof ImportTemplatesResponseSchema>

// --- getSearchClient

/** Where the search service listens when it is not Algolia's own hosts (the local emulator). */
export const SearchHostsSchema = v.object({
  /** host:port, e.g. 127.0.0.1:7700 */
  hosts: v.pipe(v.array(v.string()), v.minLength(1, 'searchHosts has no host')),
  protocol: v.picklist(['http', 'https']),
})

export type SearchHosts = v.InferOutput<typeof SearchHostsSchema>

/** The finding templates (analysts above level 5), or one company's findings (whoever may select it). */
export const SearchClientRequestSchema = v.variant(
  'type',
  [
    v.strictObject({ type: v.literal('search') }),
    v.strictObject({
      type: v.literal('findings'),
      company: companySlugSchema('Name the company by its slug'),
    }),
  ],
  'Ask for a search client with type "search" or "findings"',
)

export type SearchClientRequest = v.InferOutput<typeof SearchClientRequestSchema>

export const SearchClientResponseSchema = v.object({
  success: v.literal(true),
  /**
   * A secured key: search only, the asked-for indexes only (and for findings, filtered), valid for
   * SEARCH_KEY_LIFETIME_SECONDS (templates) or FINDINGS_SEARCH_KEY_LIFETIME_SECONDS (findings).
   */
  searchKey: v.pipe(v.string(), v.minLength(1, 'searchKey is missing')),
  appId: v.pipe(v.string(), v.minLength(1, 'appId is missing')),
  /** Present only where the browser must not use Algolia's default hosts (locally, the emulator). */
  searchHosts: v.optional(SearchHostsSchema),
})

export type SearchClientResponse = v.InferOutput<typeof SearchClientResponseSchema>
