// Finding templates (finding_templates/{slug}): the fields, their rules, and
// the record the search index holds. The schemas check whole templates (create, import) and single
// fields (autosave); free text is validated, never rewritten, so a saved value equals the typed one.
import * as v from 'valibot'
import { parseCvssVector, type CvssVersion } from './cvss.ts'
import { services } from './services.ts'
import { SLUG_PATTERN, TEMPLATE_SLUG_MAX_LENGTH, TemplateSlugSchema } from './template-library-calls.ts'
import { SEVERITIES, TEMPLATE_STATUSES } from './template-vocabulary.ts'

export { SEVERITIES, severityLabels, severityRank, TEMPLATE_STATUSES, templateStatusLabels } from './template-vocabulary.ts'
export type { Severity, TemplateStatus } from './template-vocabulary.ts'

/**
 * Bounds of a template. A slug is a document id and a URL segment; the Markdown fields leave a
 * template far below Firestore's 1 MiB; the excerpt keeps search records small.
 */
export const TEMPLATE_LIMITS = {
  slugLength: TEMPLATE_SLUG_MAX_LENGTH,
  titleLength: 200,
  markdownLength: 20_000,
  cweCount: 10,
  referenceCount: 30,
  referenceLength: 2048,
  tagCount: 20,
  tagLength: 40,
  excerptLength: 300,
} as const

const withoutDuplicates = <T>() => v.transform<T[], T[]>((items) => [...new Set(items)])

const TitleSchema = v.pipe(
  v.string('Enter a title'),
  v.check((title) => title.trim() !== '', 'Enter a title'),
  v.maxLength(TEMPLATE_LIMITS.titleLength, `Keep the title to ${TEMPLATE_LIMITS.titleLength} characters`),
  v.check((title) => !/[\r\n]/.test(title), 'Keep the title on one line'),
)

const markdownSchema = (field: string) =>
  v.pipe(
    v.string(`Write the ${field} as text`),
    v.maxLength(TEMPLATE_LIMITS.markdownLength, `Keep the ${field} to ${TEMPLATE_LIMITS.markdownLength} characters`),
  )

export interface TemplateCvss {
  version: CvssVersion
  /** Normalised: the vector-string order, without "Not Defined" metrics. */
  vector: string
  score: number
}

/**
 * A vector as typed (text; blank clears it) or as exported ({ vector, version, score }). The
 * version and score always come from the vector; given ones must agree with it.
 */
const CvssSchema = v.pipe(
  v.union(
    [
      v.null(),
      v.string(),
      // A score may be text: a spreadsheet cell of an imported CSV.
      v.strictObject({ version: v.optional(v.string()), vector: v.string(), score: v.optional(v.union([v.number(), v.string()])) }),
    ],
    'Give the CVSS vector as text, such as CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }): TemplateCvss | null => {
    const input = dataset.value
    if (input === null || (typeof input === 'string' && input.trim() === '')) return null
    const parsed = parseCvssVector(typeof input === 'string' ? input : input.vector)
    if (!parsed.ok) {
      addIssue({ message: parsed.error })
      return NEVER
    }
    if (typeof input === 'object' && input.version !== undefined && input.version !== parsed.version) {
      addIssue({ message: `The vector is CVSS ${parsed.version}, not ${input.version}` })
      return NEVER
    }
    if (typeof input === 'object' && input.score !== undefined && Number(input.score) !== parsed.score) {
      addIssue({ message: `The score ${input.score} does not match the vector, which scores ${parsed.score}` })
      return NEVER
    }
    return { version: parsed.version, vector: parsed.vector, score: parsed.score }
  }),
)

const CWE_PATTERN = /^CWE-[1-9]\d{0,6}$/

const CweListSchema = v.pipe(
  v.array(
    v.pipe(
      v.string('Write CWE ids as text, like CWE-79'),
      v.trim(),
      v.toUpperCase(),
      v.regex(CWE_PATTERN, (issue) => `"${issue.input}" is not a CWE id: write it like CWE-79`),
    ),
    'List the CWE ids',
  ),
  withoutDuplicates<string>(),
  v.maxLength(TEMPLATE_LIMITS.cweCount, `List at most ${TEMPLATE_LIMITS.cweCount} CWE ids`),
)

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== ''
  } catch {
    return false
  }
}

const ReferenceListSchema = v.pipe(
  v.array(
    v.pipe(
      v.string('Write references as web addresses'),
      v.trim(),
      v.maxLength(TEMPLATE_LIMITS.referenceLength, `Keep each reference to ${TEMPLATE_LIMITS.referenceLength} characters`),
      // The rules check each address without spaces; a space in an address is written %20.
      v.check(
        (text) => !/\s/.test(text),
        (issue) => `"${issue.input}" has a space: write it as %20`,
      ),
      v.check(isWebAddress, (issue) => `"${issue.input}" is not a web address: references start with https:// or http://`),
    ),
    'List the references',
  ),
  withoutDuplicates<string>(),
  v.maxLength(TEMPLATE_LIMITS.referenceCount, `List at most ${TEMPLATE_LIMITS.referenceCount} references`),
)

const TagListSchema = v.pipe(
  v.array(
    v.pipe(
      v.string('Write tags as text'),
      v.trim(),
      v.toLowerCase(),
      v.maxLength(TEMPLATE_LIMITS.tagLength, (issue) => `Keep the tag "${issue.input}" to ${TEMPLATE_LIMITS.tagLength} characters`),
      v.regex(SLUG_PATTERN, (issue) => `"${issue.input}" is not a tag: use lowercase words joined by hyphens, like sql-injection`),
    ),
    'List the tags',
  ),
  withoutDuplicates<string>(),
  v.maxLength(TEMPLATE_LIMITS.tagCount, `Use at most ${TEMPLATE_LIMITS.tagCount} tags`),
)

const serviceIds = services.map((service) => service.id)

const ServiceListSchema = v.pipe(
  v.array(
    v.picklist(serviceIds, (issue) => `"${String(issue.input)}" is not a service: use ${serviceIds.join(', ')}`),
    'List the services',
  ),
  withoutDuplicates<(typeof serviceIds)[number]>(),
)

/** One schema per editable field: the autosave of a single field checks its value here. */
export const templateFieldSchemas = {
  title: TitleSchema,
  severity: v.picklist(SEVERITIES, `Choose a severity: ${SEVERITIES.join(', ')}`),
  cvss: CvssSchema,
  cwe: CweListSchema,
  description: markdownSchema('description'),
  impact: markdownSchema('impact'),
  remediation: markdownSchema('remediation'),
  references: ReferenceListSchema,
  tags: TagListSchema,
  services: ServiceListSchema,
  status: v.picklist(TEMPLATE_STATUSES, `Choose a status: ${TEMPLATE_STATUSES.join(', ')}`),
}

export type TemplateField = keyof typeof templateFieldSchemas

function templateShapeMessage(issue: v.StrictObjectIssue): string {
  if (issue.expected === 'Object') return 'A template is an object of fields'
  if (issue.expected === 'never') return 'Unknown field'
  return 'Required'
}

/** A whole template as created or imported: slug, title and severity are required, the rest has defaults. */
export const TemplateInputSchema = v.strictObject(
  {
    slug: TemplateSlugSchema,
    title: templateFieldSchemas.title,
    severity: templateFieldSchemas.severity,
    cvss: v.optional(templateFieldSchemas.cvss, null),
    cwe: v.optional(templateFieldSchemas.cwe, () => []),
    description: v.optional(templateFieldSchemas.description, ''),
    impact: v.optional(templateFieldSchemas.impact, ''),
    remediation: v.optional(templateFieldSchemas.remediation, ''),
    references: v.optional(templateFieldSchemas.references, () => []),
    tags: v.optional(templateFieldSchemas.tags, () => []),
    services: v.optional(templateFieldSchemas.services, () => []),
    status: v.optional(templateFieldSchemas.status, 'draft'),
  },
  templateShapeMessage,
)

export type TemplateInput = v.InferOutput<typeof TemplateInputSchema>

/** The fields of a template's content, in the order exports list them. */
export const TEMPLATE_CONTENT_FIELDS = Object.keys(TemplateInputSchema.entries) as (keyof TemplateInput)[]

/** A stored template: its content and who changed it last. Times are epoch milliseconds. */
export interface FindingTemplate extends TemplateInput {
  createdAt: number
  updatedAt: number
  updatedBy: string
}

/** One line for people: each failing field with its first problem, e.g. `tags: "SQL!" is not a tag: …`. */
export function templateIssuesMessage(issues: readonly v.BaseIssue<unknown>[]): string {
  const byField = new Map<string, string>()
  for (const issue of issues) {
    const field = issue.path?.[0]?.key
    const label = field === undefined ? '' : `${String(field)}: `
    if (!byField.has(label)) byField.set(label, issue.message)
  }
  return [...byField].map(([label, message]) => `${label}${message}`).join('; ')
}
