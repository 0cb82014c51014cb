// companies/{slug}/findings/{id}/comments/{id}: the conversation on a finding. `client` comments
// are read by everyone who sees the finding; `internal` ones by analysts only (the rules make a
// client's list ask for visibility == 'client'). Written through addFindingComment only, which
// also notifies the people it mentions: an address typed after "@", or a person picked in the comment
// box (listMentionCandidates), whose "@name" the body holds and whose uid the request names.
import * as v from 'valibot'
import { findingPath } from './findings.ts'
import { TimestampSchema } from './stored.ts'

export const FINDING_COMMENTS_COLLECTION = 'comments'

export const findingCommentsPath = (company: string, findingId: string) =>
  `${findingPath(company, findingId)}/${FINDING_COMMENTS_COLLECTION}`

export const COMMENT_VISIBILITIES = ['client', 'internal'] as const
export type CommentVisibility = (typeof COMMENT_VISIBILITIES)[number]

export const COMMENT_MAX_LENGTH = 10_000

/** At most this many people are told of one comment. */
export const COMMENT_MENTIONS_MAX = 20

/** Someone a comment may mention, as the comment box offers them. */
export interface MentionPerson {
  uid: string
  /** Their display name, else their address. */
  name: string
  email: string
}

/** What a picked mention writes into the body: "@" and the person's name (their address when they have none). */
export const mentionLabel = (person: Pick<MentionPerson, 'name' | 'email'>) => `@${person.name.trim() || person.email}`

/**
 * Whether a picked person's mention still stands in `body`: their "@name" or "@address", in any
 * case. A mention deleted from the text before posting tells nobody.
 */
export function mentionStands(body: string, person: Pick<MentionPerson, 'name' | 'email'>): boolean {
  const text = body.toLowerCase()
  return text.includes(mentionLabel(person).toLowerCase()) || text.includes(`@${person.email.toLowerCase()}`)
}

const StoredCommentSchema = v.object({
  authorUid: v.string(),
  authorName: v.string(),
  authorRole: v.string(),
  body: v.string(),
  visibility: v.picklist(COMMENT_VISIBILITIES),
  mentions: v.optional(v.array(v.string()), []),
  createdAt: TimestampSchema,
})

export type FindingComment = v.InferOutput<typeof StoredCommentSchema> & { id: string }

export function commentFromDocument(id: string, data: unknown): FindingComment | null {
  const parsed = v.safeParse(StoredCommentSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}
