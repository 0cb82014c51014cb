// The contracts of the import callables (#domain/callables.ts, decision 0017): an analyst's
// browser parses scanner files with the shared parsers and sends what they made, in batches; the
// functions check every field here, compute each finding's fingerprint themselves, and write the
// draft. Review changes draft findings; publishing turns the draft into the company's findings.
import * as v from 'valibot'
import { hasLevel, isAnalyst, LEVEL, managesService, type Access } from './access.ts'
import { ASSET_TYPES } from './assets.ts'
import { ImportedFileSchema, ImportReportSchema, ServiceStatsSchema } from './scans.ts'
import { DRAFT_TEXT_FIELDS } from './scan-drafts.ts'
import { PARSE_LIMITS } from './scan-import/parsed-scan.ts'
import { ServiceIdSchema, type ServiceId } from './services.ts'
import { SEVERITIES } from './template-vocabulary.ts'
import { companySlugSchema } from './company-slug.ts'

/** Who may import, review and publish a service's scans: the analyst service page's rule. */
export const mayImportScans = (access: Access | null | undefined, service: ServiceId | string): boolean =>
  isAnalyst(access) &&
  (hasLevel(access, LEVEL.seniorAnalyst) ||
    (service === 'password_cracking' && hasLevel(access, LEVEL.analyst) && managesService(access, service)))

/**
 * Who may call the import callables at all: analysts. Which service they may import is in their
 * users_access document (servicesManaged), not in the token, so the handler checks mayImportScans.
 */
export const mayImportAnyScans = (access: Access) => isAnalyst(access) && hasLevel(access, LEVEL.analyst)

/**
 * The raw files an import keeps (R2 through the Worker, decision 0017): at most this size, the
 * Workers' request body limit. Password audits are never kept: their files hold clear-text passwords.
 */
export const RAW_SCAN_FILE_MAX_BYTES = 100 * 1024 * 1024
export const keepsRawFile = (service: ServiceId | string, format: string) => service !== 'password_cracking' && format !== 'ntds_potfile'
/** Where the Worker keeps and gives back a scan's raw file. */
export const RAW_SCAN_FILES_PATH = '/api/scans/files'
export const rawScanFileUrl = (company: string, scanId: string, sha256: string) => `${RAW_SCAN_FILES_PATH}/${company}/${scanId}/${sha256}`

/** Findings and assets sent in one call: well under a callable's 10 MB with bounded fields. */
export const IMPORT_BATCH_FINDINGS = 200
export const IMPORT_BATCH_ASSETS = 500

const CompanySlug = companySlugSchema('Name the company by its slug')
const ScanIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/, 'Not a valid scan id'))
const IdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/, 'Not a valid id'))
const text = (max: number = PARSE_LIMITS.maxFieldChars) => v.pipe(v.string(), v.maxLength(max))
const shortText = text(2_048)
const list = (max: number, item = shortText) => v.optional(v.pipe(v.array(item), v.maxLength(max)))
const Sha256Schema = v.pipe(v.string(), v.regex(/^[a-f0-9]{64}$/, 'Not a SHA-256'))
const TemplateSlugSchema = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,119}$/, 'Not a template slug'))

/** Fields a format has that the shape does not name, kept as JSON within a bound. */
const RawSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.check((raw) => JSON.stringify(raw).length <= PARSE_LIMITS.maxFieldChars, 'The raw fields are too long'),
)

const TargetSchema = v.variant('kind', [
  v.strictObject({
    kind: v.literal('url'),
    url: shortText,
    method: v.optional(v.pipe(shortText, v.maxLength(16))),
    parameter: v.optional(shortText),
  }),
  v.strictObject({
    kind: v.literal('host'),
    host: shortText,
    ip: v.optional(shortText),
    port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65_535))),
    protocol: v.optional(v.pipe(shortText, v.maxLength(16))),
  }),
  v.strictObject({
    kind: v.literal('cloud'),
    provider: shortText,
    account: shortText,
    region: shortText,
    cloudService: shortText,
    resource: shortText,
  }),
  v.strictObject({ kind: v.literal('account'), domain: shortText, account: shortText }),
])

export const ParsedFindingSchema = v.strictObject({
  ruleId: v.pipe(shortText, v.minLength(1, 'A finding needs its rule id')),
  check: v.optional(v.pipe(shortText, v.minLength(1))),
  title: v.pipe(shortText, v.minLength(1, 'A finding needs a title')),
  severity: v.picklist(SEVERITIES),
  target: TargetSchema,
  cvss: v.optional(
    v.strictObject({
      version: v.pipe(shortText, v.maxLength(8)),
      vector: shortText,
      score: v.pipe(v.number(), v.minValue(0), v.maxValue(10)),
    }),
  ),
  cwe: list(20),
  cve: list(200),
  tags: list(50),
  description: v.optional(text()),
  remediation: v.optional(text()),
  references: list(50),
  evidence: v.optional(text(PARSE_LIMITS.maxEvidenceChars)),
  request: v.optional(text(PARSE_LIMITS.maxEvidenceChars)),
  response: v.optional(text(PARSE_LIMITS.maxEvidenceChars)),
  raw: RawSchema,
})

const PortSchema = v.strictObject({
  port: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(65_535)),
  protocol: v.pipe(shortText, v.maxLength(16)),
  service: v.optional(shortText),
  product: v.optional(shortText),
  version: v.optional(shortText),
})

export const ParsedAssetSchema = v.strictObject({
  type: v.picklist(ASSET_TYPES),
  value: v.pipe(shortText, v.minLength(1)),
  parent: v.optional(shortText),
  ports: v.optional(v.pipe(v.array(PortSchema), v.maxLength(70_000))),
  technologies: list(100),
  notAfter: v.optional(v.nullable(v.number())),
  issuer: v.optional(shortText),
  cloud: v.optional(v.strictObject({ account: shortText, region: shortText, cloudService: shortText })),
  raw: v.optional(RawSchema),
  // Derived figures only: the schema has no place for a password or a hash.
  account: v.optional(
    v.strictObject({
      masked: v.pipe(shortText, v.maxLength(64)),
      cracked: v.boolean(),
      length: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
      classes: v.pipe(v.array(shortText), v.maxLength(4)),
      patterns: v.pipe(v.array(shortText), v.maxLength(20)),
      privileged: v.boolean(),
      reuseCluster: v.nullable(v.pipe(shortText, v.maxLength(128))),
      reuseCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
    }),
  ),
})

// --- createDraftScan

export const CreateDraftScanRequestSchema = v.strictObject({
  company: CompanySlug,
  service: ServiceIdSchema,
  title: v.pipe(v.string(), v.trim(), v.minLength(1, 'Give the scan a title'), v.maxLength(200, 'Keep the title to 200 characters')),
  /**
   * Two scans compare when their scope keys agree; by default the files' own targets' key
   * (targetsScopeKey), so a file of other targets never compares with the service's latest scan.
   */
  scopeKey: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500))),
  files: v.pipe(
    v.array(
      v.strictObject({ ...ImportedFileSchema.entries, name: text(255), sha256: Sha256Schema, tool: text(100), toolVersion: text(100) }),
    ),
    v.minLength(1, 'Import at least one file'),
    v.maxLength(20, 'Import at most 20 files at once'),
  ),
  startedAt: v.nullable(v.pipe(v.number(), v.integer())),
  finishedAt: v.nullable(v.pipe(v.number(), v.integer())),
  targets: v.pipe(v.array(shortText), v.maxLength(10_000)),
  report: v.strictObject({
    ...ImportReportSchema.entries,
    notes: v.pipe(ImportReportSchema.entries.notes.wrapped, v.maxLength(PARSE_LIMITS.notes)),
  }),
  serviceStats: v.optional(ServiceStatsSchema),
})
export type CreateDraftScanRequest = v.InferOutput<typeof CreateDraftScanRequestSchema>

export const CreateDraftScanResponseSchema = v.strictObject({
  scanId: v.string(),
  /** False when these files were imported before: nothing changed, the existing scan is named. */
  created: v.boolean(),
  /**
   * 'importing' while its findings are still to be sent (a new draft, or an import of the same files
   * that did not finish: send every batch again, then finishDraftImport); any other state is whole.
   */
  state: v.string(),
})

// --- addDraftFindings

export const AddDraftFindingsRequestSchema = v.strictObject({
  company: CompanySlug,
  scanId: ScanIdSchema,
  sourceFile: Sha256Schema,
  findings: v.pipe(
    v.array(ParsedFindingSchema),
    v.maxLength(IMPORT_BATCH_FINDINGS, `Send at most ${IMPORT_BATCH_FINDINGS} findings at once`),
  ),
  assets: v.pipe(v.array(ParsedAssetSchema), v.maxLength(IMPORT_BATCH_ASSETS, `Send at most ${IMPORT_BATCH_ASSETS} assets at once`)),
})
export const AddDraftFindingsResponseSchema = v.strictObject({
  findings: v.number(),
  assets: v.number(),
  /** Findings no rule mapping gave a template. */
  unmapped: v.number(),
})

// --- finishDraftImport

/** After the last batch: the draft becomes whole, to review and publish, and its files count as imported. */
export const FinishDraftImportRequestSchema = v.strictObject({ company: CompanySlug, scanId: ScanIdSchema })
export const FinishDraftImportResponseSchema = v.strictObject({
  /** Its draft findings (instances of one issue are one). */
  findings: v.number(),
})

// --- reviewDraftFindings

/** Draft findings one review call changes (one transaction's writes). */
export const DRAFT_REVIEW_MAX_FINDINGS = 500

export const DraftReviewSchema = v.variant('kind', [
  /** The analyst's severity, kept whatever CVSS score is set later; null: it follows the CVSS score again. */
  v.strictObject({ kind: v.literal('severity'), severity: v.nullable(v.picklist(SEVERITIES)) }),
  /**
   * The analyst's CVSS vector (3.1 or 4.0; the server scores it), or null to drop the scanner's. The
   * severity follows the score (without one, the scanner's) unless an analyst chose it by hand.
   */
  v.strictObject({ kind: v.literal('cvss'), vector: v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(300))) }),
  v.strictObject({ kind: v.literal('false_positive'), value: v.boolean() }),
  /** This finding's template; `remember` also maps the rule to it for later imports. */
  v.strictObject({ kind: v.literal('template'), templateSlug: v.nullable(TemplateSlugSchema), remember: v.optional(v.boolean(), false) }),
  v.strictObject({ kind: v.literal('merge'), into: IdSchema }),
  /** Undoes merges: the findings named, and those merged into them, stand on their own again. */
  v.strictObject({ kind: v.literal('split') }),
  /**
   * The analyst's own title, description or remediation of one finding (only the fields sent):
   * published instead of the scanner's or the template's text. The same text again changes nothing.
   */
  v.pipe(
    v.strictObject({
      kind: v.literal('text'),
      title: v.optional(
        v.pipe(v.string(), v.trim(), v.minLength(1, 'Give the finding a title'), v.maxLength(2_048, 'Keep the title to 2,048 characters')),
      ),
      description: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.maxLength(PARSE_LIMITS.maxFieldChars, `Keep the description to ${PARSE_LIMITS.maxFieldChars.toLocaleString('en')} characters`),
        ),
      ),
      remediation: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.maxLength(PARSE_LIMITS.maxFieldChars, `Keep the remediation to ${PARSE_LIMITS.maxFieldChars.toLocaleString('en')} characters`),
        ),
      ),
    }),
    v.check((text) => DRAFT_TEXT_FIELDS.some((field) => text[field] !== undefined), 'Send the title, description or remediation to save'),
  ),
])
export type DraftReview = v.InferOutput<typeof DraftReviewSchema>

const ReviewDraftFindingsRequestEntries = v.strictObject({
  company: CompanySlug,
  scanId: ScanIdSchema,
  findingIds: v.pipe(
    v.array(IdSchema),
    v.minLength(1, 'Choose at least one finding'),
    v.maxLength(DRAFT_REVIEW_MAX_FINDINGS, `Choose at most ${DRAFT_REVIEW_MAX_FINDINGS} findings at once`),
  ),
  review: DraftReviewSchema,
})
// Text is one finding's: a selection shares a severity, never a description.
export const ReviewDraftFindingsRequestSchema = v.pipe(
  ReviewDraftFindingsRequestEntries,
  v.forward(
    v.check((request) => request.review.kind !== 'text' || request.findingIds.length === 1, 'Rewrite the text of one finding at a time'),
    ['findingIds'],
  ),
)
export const ReviewDraftFindingsResponseSchema = v.strictObject({ changed: v.number() })

// --- publishScan

export const PublishScanRequestSchema = v.strictObject({ company: CompanySlug, scanId: ScanIdSchema })
export const PublishScanResponseSchema = v.strictObject({
  /** True when this call published it; false when it was published before (nothing changes) or is still being written. */
  published: v.boolean(),
  previousScanId: v.nullable(v.string()),
  counts: v.strictObject({ total: v.number(), new: v.number(), persisting: v.number(), notDetected: v.number(), reopened: v.number() }),
  /**
   * While it is still being written (a large scan takes more than one call): how far, in draft and
   * service findings gone through; call again to go on. Null once published.
   */
  progress: v.nullable(v.strictObject({ done: v.number(), total: v.number() })),
})

// --- previewPublication

/** What publishing a draft will do, asked before the analyst confirms (decision 0045). */
export const PreviewPublicationRequestSchema = PublishScanRequestSchema
export const PreviewPublicationResponseSchema = v.strictObject({
  scopeKey: v.string(),
  /** Published as a side scan: it closes nothing outside its scope and is never the service's latest. */
  side: v.boolean(),
  /** The published scan of the same scope it compares with; null when none was published before it. */
  previous: v.nullable(v.strictObject({ id: v.string(), title: v.string(), startedAt: v.number(), publishedAt: v.nullable(v.number()) })),
  /** Open findings last seen by a scan of this scope, not listed by this draft: they become not detected. */
  notDetected: v.number(),
  /** Open findings of this scope it does not list that keep their status (a retest, dispute or acceptance waits on a person). */
  held: v.number(),
})
export type PublicationPreview = v.InferOutput<typeof PreviewPublicationResponseSchema>

// --- discardDraftScan

export const DiscardDraftScanRequestSchema = PublishScanRequestSchema
export const DiscardDraftScanResponseSchema = v.strictObject({ discarded: v.boolean() })

// --- getPasswordReuseKey

export const PasswordReuseKeyRequestSchema = v.strictObject({ company: CompanySlug })
export const PasswordReuseKeyResponseSchema = v.strictObject({ key: v.pipe(v.string(), v.regex(/^[a-f0-9]{64}$/)) })

// --- saveTemplateMapping

/** Maps a service's rule to a template for later imports, or (null) removes the mapping. */
export const SaveTemplateMappingRequestSchema = v.strictObject({
  service: ServiceIdSchema,
  ruleId: v.pipe(v.string(), v.trim(), v.minLength(1, 'Name the rule'), v.maxLength(2_048)),
  templateSlug: v.nullable(TemplateSlugSchema),
})
export const SaveTemplateMappingResponseSchema = v.strictObject({ saved: v.boolean() })
