// The logic of the tag input: reading what is typed with the template's tag rules, the suggestions
// that match it, and saving a tag list as single adds and removes.
import * as v from 'valibot'
import { templateFieldSchemas } from '#domain/finding-template.ts'
import { DEFAULT_SAVE_ERROR } from '~/ui/autosave/autosave'

export interface TagSuggestion {
  tag: string
  /** How many templates carry the tag. */
  count: number
}

/** Enough to choose from without scrolling on a phone. */
export const SUGGESTION_LIMIT = 8

type TagReading = { ok: true; tag: string } | { ok: false; error: string }

/** One typed tag, trimmed and lowercased by the tag schema, or why it cannot be added to `tags`. */
export function readTag(input: string, tags: readonly string[]): TagReading {
  const single = v.safeParse(templateFieldSchemas.tags, [input])
  if (!single.success) return { ok: false, error: single.issues[0].message }
  const [tag = ''] = single.output
  const list = v.safeParse(templateFieldSchemas.tags, [...tags, tag])
  return list.success ? { ok: true, tag } : { ok: false, error: list.issues[0].message }
}

export interface TagEntry {
  tags: string[]
  /** What stays in the input. */
  draft: string
  error: string | null
}

/**
 * Adds what was typed or pasted into the input: the text up to its last comma, or all of it when
 * `whole` (Enter). Comma-separated entries are added in order; one already there is simply taken;
 * the first refused one stays in the input, with what follows it, and the reason.
 */
export function enterTags(tags: readonly string[], text: string, { whole }: { whole: boolean }): TagEntry {
  const cut = whole ? text.length : text.lastIndexOf(',')
  if (cut < 0) return { tags: [...tags], draft: text, error: null }
  const entries = text
    .slice(0, cut)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  const rest = text.slice(cut + 1).trimStart()
  const next = [...tags]
  for (const [index, entry] of entries.entries()) {
    const reading = readTag(entry, next)
    if (!reading.ok)
      return { tags: next, draft: [...entries.slice(index), rest].filter((part) => part !== '').join(', '), error: reading.error }
    if (!next.includes(reading.tag)) next.push(reading.tag)
  }
  return { tags: next, draft: rest, error: null }
}

/**
 * Suggestions for what is typed, leaving out chosen tags: tags that start with it (or have a word
 * that does) before tags that merely contain it, the most used first. Nothing typed: the most used.
 */
export function matchingSuggestions(
  suggestions: readonly TagSuggestion[],
  typed: string,
  chosen: readonly string[],
  limit = SUGGESTION_LIMIT,
): TagSuggestion[] {
  const query = typed.trim().toLowerCase()
  const rank = ({ tag }: TagSuggestion) => (tag.startsWith(query) || tag.includes(`-${query}`) ? 0 : 1)
  return suggestions
    .filter(({ tag }) => !chosen.includes(tag) && tag.includes(query))
    .sort((a, b) => rank(a) - rank(b) || b.count - a.count || a.tag.localeCompare(b.tag))
    .slice(0, limit)
}

/** Tag lists are sets: the same tags in any order are the same list. */
export const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((tag) => b.includes(tag))

/** What turns `from` into `to`. */
export function tagChanges(from: readonly string[], to: readonly string[]) {
  return { added: to.filter((tag) => !from.includes(tag)), removed: from.filter((tag) => !to.includes(tag)) }
}

type TagChange = 'add' | 'remove'

/** A single add or remove that did not reach the document. */
export class TagChangeError extends Error {
  readonly change: TagChange
  readonly tag: string

  constructor(change: TagChange, tag: string, cause: unknown) {
    super(`Could not ${change} the tag ${tag}`, { cause })
    this.change = change
    this.tag = tag
  }
}

/** The autosave message for a failed tag save: which tag, and which way. */
export function describeTagError(error: unknown): string {
  if (!(error instanceof TagChangeError)) return DEFAULT_SAVE_ERROR
  const done = error.change === 'add' ? 'added' : 'removed'
  return `“${error.tag}” was not ${done}. Check your connection and try again.`
}

export interface TagChanges {
  add(tag: string): Promise<void>
  remove(tag: string): Promise<void>
}

/**
 * Saves a tag list as single adds and removes, so that changes made elsewhere to other tags
 * survive. Saves run one after another, each against the list the document holds by then, so
 * overlapping saves never repeat a change.
 */
export class TagSaver {
  private held: readonly string[]
  private queue: Promise<void> = Promise.resolve()
  private readonly changes: TagChanges

  constructor(held: readonly string[], changes: TagChanges) {
    this.held = held
    this.changes = changes
  }

  /** The document now holds `tags`. */
  follow(tags: readonly string[]): void {
    this.held = tags
  }

  save = (tags: readonly string[]): Promise<void> => {
    const run = this.queue.then(() => this.apply(tags))
    // A failed save must not stop the ones queued after it; its caller hears of the failure.
    this.queue = run.catch(() => undefined)
    return run
  }

  private async apply(target: readonly string[]): Promise<void> {
    const { added, removed } = tagChanges(this.held, target)
    for (const tag of removed) {
      await this.change('remove', tag)
      this.held = this.held.filter((held) => held !== tag)
    }
    for (const tag of added) {
      await this.change('add', tag)
      if (!this.held.includes(tag)) this.held = [...this.held, tag]
    }
  }

  private async change(change: TagChange, tag: string): Promise<void> {
    try {
      await this.changes[change](tag)
    } catch (cause) {
      throw new TagChangeError(change, tag, cause)
    }
  }
}
