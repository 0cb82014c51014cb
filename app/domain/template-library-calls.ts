// The contracts of the callables that delete finding templates and import files of them
// (#domain/callables.ts). Kept apart from template-library.ts, whose template rules bring the CVSS
// and Markdown libraries: the browser's call() carries every contract, on every page that calls.
import * as v from 'valibot'
import { TemplateSlugSchema } from './template-vocabulary.ts'

// --- deleteFindingTemplate

export const DeleteTemplateRequestSchema = v.strictObject({ slug: TemplateSlugSchema })
export type DeleteTemplateRequest = v.InferOutput<typeof DeleteTemplateRequestSchema>
/** Deleted; a refusal is an error (failed-precondition, not-found). */
export const DeleteTemplateResponseSchema = v.strictObject({ success: v.literal(true) })
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
