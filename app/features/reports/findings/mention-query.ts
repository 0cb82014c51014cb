// The mention being typed in a comment box, apart from React: where the "@" starts, what follows
// it up to the caret (the start of an address), and the text once a person is picked. The box asks
// the server for the people who may see the finding whose address starts so (listMentionCandidates).
import { mentionLabel, type MentionPerson } from '#domain/finding-comments.ts'

/** The mention at the caret: its "@" at `start`, then `query` (lower-cased) up to the caret. */
export interface ActiveMention {
  start: number
  query: string
}

/** What may stand before a mention's "@": the start, a space or punctuation, not a word or an address. */
const OPENS = /[\s([{"'“‘,;:!?]/

/** Characters an address may hold, which a query is made of (no spaces: a space ends the mention). */
const QUERY = /^[A-Za-z0-9._%+\-@]*$/

/** Longest query asked about: past it no address is still being typed. */
export const MENTION_QUERY_MAX = 100

/** The mention being typed at `caret` in `text`, or null when the caret is not in one. */
export function activeMention(text: string, caret: number): ActiveMention | null {
  const before = text.slice(0, caret)
  const at = before.lastIndexOf('@')
  if (at < 0) return null
  // The "@" inside an address being typed ("@ana@acme") belongs to the address: go back to the mention's own.
  let start = at
  const previous = before.lastIndexOf('@', at - 1)
  if (previous >= 0 && QUERY.test(before.slice(previous + 1, at)) && (previous === 0 || OPENS.test(before[previous - 1]!))) {
    start = previous
  }
  if (start > 0 && !OPENS.test(before[start - 1]!)) return null
  const query = before.slice(start + 1)
  if (!QUERY.test(query) || query.length > MENTION_QUERY_MAX) return null
  return { start, query: query.toLowerCase() }
}

/** `text` with the mention at `mention.start` up to `caret` replaced by the person's, a space after it; and the caret after that space. */
export function insertMention(text: string, mention: ActiveMention, caret: number, person: MentionPerson): { text: string; caret: number } {
  const label = `${mentionLabel(person)} `
  const after = text.slice(caret).replace(/^\S*/, '').replace(/^ /, '')
  const next = `${text.slice(0, mention.start)}${label}${after}`
  return { text: next, caret: mention.start + label.length }
}
