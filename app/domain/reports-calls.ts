// The contracts of the report callables (#domain/callables.ts): the findings workflow, retests
// and comments. Each names the company it acts in; the functions check there that the caller
// sees the service's results in that company, and the move through finding-workflow.ts.
import * as v from 'valibot'
import { findingRole, type Access } from './access.ts'
import { COMMENT_MAX_LENGTH, COMMENT_MENTIONS_MAX, COMMENT_VISIBILITIES } from './finding-comments.ts'
import { FINDING_ACTION_NAMES, RETEST_OUTCOME_ACTIONS, type FindingAction } from './finding-workflow.ts'
import { RETEST_MAX_FINDINGS, RETEST_OUTCOMES } from './retests.ts'
import { formatNumber } from './numbers.ts'
import { RequestIdSchema } from './call-receipts.ts'
import { companySlugSchema } from './company-slug.ts'

const CompanySlug = companySlugSchema('Name the company by its slug')
const IdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,128}$/, 'Not a valid id'))
/** The longest note or justification a move carries. */
export const FINDING_NOTE_MAX = 4_000
const NOTE_TOO_LONG = `Keep the note to ${formatNumber(FINDING_NOTE_MAX)} characters`
const NoteSchema = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(FINDING_NOTE_MAX, NOTE_TOO_LONG)), '')
const FindingIdsSchema = v.pipe(
  v.array(IdSchema),
  v.minLength(1, 'Choose at least one finding'),
  v.maxLength(RETEST_MAX_FINDINGS, `Choose at most ${RETEST_MAX_FINDINGS} findings at once`),
  v.transform((ids) => [...new Set(ids)]),
)

/** Moves made one finding (or a selection) at a time; retests have their own calls. */
const DIRECT_ACTIONS = FINDING_ACTION_NAMES.filter(
  (action) => action !== 'request_retest' && !(RETEST_OUTCOME_ACTIONS as readonly string[]).includes(action),
) as Exclude<FindingAction, 'request_retest' | (typeof RETEST_OUTCOME_ACTIONS)[number]>[]

// --- changeFindingStatus

export const ChangeFindingStatusRequestSchema = v.strictObject({
  company: CompanySlug,
  findingIds: FindingIdsSchema,
  action: v.picklist(DIRECT_ACTIONS, 'Not a move a finding can make'),
  note: NoteSchema,
  /** request_acceptance: when the acceptance ends (epoch ms). */
  expiresAt: v.optional(v.pipe(v.number(), v.integer())),
})
export type ChangeFindingStatusRequest = v.InferOutput<typeof ChangeFindingStatusRequestSchema>

/** Each finding is moved or refused on its own; the refusals say why. */
export const ChangeFindingStatusResponseSchema = v.strictObject({
  changed: v.array(v.string()),
  refused: v.array(v.strictObject({ findingId: v.string(), reason: v.string() })),
})

// --- requestRetest

export const RequestRetestRequestSchema = v.strictObject({
  /** The same on every try of one request (call-receipts.ts): a repeat answers the first try. */
  requestId: RequestIdSchema,
  company: CompanySlug,
  findingIds: FindingIdsSchema,
  note: v.pipe(
    v.string('Say what was changed'),
    v.trim(),
    v.minLength(1, 'Say what was changed, for the analyst'),
    v.maxLength(FINDING_NOTE_MAX, NOTE_TOO_LONG),
  ),
})
export const RequestRetestResponseSchema = v.strictObject({
  retestId: v.string(),
  /** Epoch ms: when the analysts owe the outcome. */
  dueAt: v.number(),
  refused: v.array(v.strictObject({ findingId: v.string(), reason: v.string() })),
})

// --- completeRetest

export const CompleteRetestRequestSchema = v.strictObject({
  /** The same on every try of one outcome (call-receipts.ts): a repeat answers the first try. */
  requestId: RequestIdSchema,
  company: CompanySlug,
  retestId: IdSchema,
  results: v.pipe(
    v.array(v.strictObject({ findingId: IdSchema, outcome: v.picklist(RETEST_OUTCOMES), note: NoteSchema })),
    v.minLength(1, 'Give an outcome for at least one finding'),
    v.maxLength(RETEST_MAX_FINDINGS),
  ),
})
export const CompleteRetestResponseSchema = v.strictObject({
  /** True when every finding of the request now has its outcome. */
  completed: v.boolean(),
  refused: v.array(v.strictObject({ findingId: v.string(), reason: v.string() })),
})

// --- addFindingComment

export const AddFindingCommentRequestSchema = v.strictObject({
  company: CompanySlug,
  findingId: IdSchema,
  body: v.pipe(
    v.string('Write the comment'),
    v.trim(),
    v.minLength(1, 'Write the comment'),
    v.maxLength(COMMENT_MAX_LENGTH, `Keep the comment to ${formatNumber(COMMENT_MAX_LENGTH)} characters`),
  ),
  visibility: v.picklist(COMMENT_VISIBILITIES),
  /**
   * The people picked in the comment box (listMentionCandidates): each is told if they may read
   * the comment and their "@name" or "@address" is still in the body (mentionStands).
   */
  mentions: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(128))),
      v.maxLength(COMMENT_MENTIONS_MAX, `Mention at most ${COMMENT_MENTIONS_MAX} people`),
      v.transform((uids) => [...new Set(uids)]),
    ),
    [],
  ),
})
export const AddFindingCommentResponseSchema = v.strictObject({ commentId: v.string() })

// --- listMentionCandidates

/** The comment box shows at most this many people for what was typed. */
export const MENTION_CANDIDATES_MAX = 6

export const ListMentionCandidatesRequestSchema = v.strictObject({
  company: CompanySlug,
  findingId: IdSchema,
  /** Who will read the comment: an analysts-only comment mentions analysts only. */
  visibility: v.picklist(COMMENT_VISIBILITIES),
  /** The start of an address, as typed after "@" (empty: the first few). */
  prefix: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(100, 'Type the start of an address')),
})
export const ListMentionCandidatesResponseSchema = v.strictObject({
  people: v.pipe(v.array(v.strictObject({ uid: v.string(), name: v.string(), email: v.string() })), v.maxLength(MENTION_CANDIDATES_MAX)),
})

/** Client managers and above, and analysts, move findings; viewers read. */
export const mayMoveFindings = (access: Access) => {
  const role = findingRole(access)
  return role !== null && role !== 'viewer'
}

/** Analysts complete retests. */
export const mayCompleteRetests = (access: Access) => findingRole(access) === 'analyst'

/** Everyone who may read a finding may comment on it (client comments); analysts also internally. */
export const mayComment = (access: Access) => findingRole(access) !== null
