// companies/{slug}/findings/{id}/comments/{id}: the conversation on a finding. `client` comments
// are read by everyone who sees the finding; `internal` ones by analysts only (the rules make a
// client's list ask for visibility == 'client'). Written through addFindingComment only, which
// also notifies the people it mentions.
import * as v from 'valibot'
import { findingPath } from './findings.ts'
import { TimestampSchema } from './stored.ts'

export const FINDING_COMMENTS_COLLECTION = 'comments'

export const findingCommentsPath = (company: string, findingId: string) =>
  `${findingPath(company, findingId)}/${FINDING_COMMENTS_COLLECTION}`

export const COMMENT_VISIBILITIES = ['client', 'internal'] as const
export type CommentVisibility = (typeof COMMENT_VISIBILITIES)[number]

export const COMMENT_MAX_LENGTH = 10_000

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
