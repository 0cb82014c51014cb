import { describe, expect, it, vi } from 'vitest'
import { TEMPLATE_LIMITS } from '#domain/finding-template.ts'
import { DEFAULT_SAVE_ERROR } from '~/ui/autosave/autosave'
import {
  describeTagError,
  enterTags,
  matchingSuggestions,
  readTag,
  sameTags,
  SUGGESTION_LIMIT,
  TagChangeError,
  tagChanges,
  TagSaver,
} from './tag-entry'

const fullList = Array.from({ length: TEMPLATE_LIMITS.tagCount }, (_, index) => `tag-${index}`)

describe('reading a typed tag', () => {
  it('trims and lowercases it as the tag schema does', () => {
    expect(readTag('  SQL-Injection ', [])).toEqual({ ok: true, tag: 'sql-injection' })
  })

  it('refuses what is not a tag, with the schema’s reason', () => {
    expect(readTag('SQL Injection', [])).toEqual({
      ok: false,
      error: '"sql injection" is not a tag: use lowercase words joined by hyphens, like sql-injection',
    })
    expect(readTag('x'.repeat(TEMPLATE_LIMITS.tagLength + 1), []).ok).toBe(false)
  })

  it('refuses a tag beyond the limit of tags', () => {
    expect(readTag('one-more', fullList)).toEqual({ ok: false, error: `Use at most ${TEMPLATE_LIMITS.tagCount} tags` })
  })
})

describe('entering tags', () => {
  it('adds the text on Enter and empties the input', () => {
    expect(enterTags(['xss'], 'CSRF', { whole: true })).toEqual({ tags: ['xss', 'csrf'], draft: '', error: null })
  })

  it('adds what comes before a typed comma and keeps typing after it', () => {
    expect(enterTags([], 'xss,', { whole: false })).toEqual({ tags: ['xss'], draft: '', error: null })
    expect(enterTags([], 'xss, csr', { whole: false })).toEqual({ tags: ['xss'], draft: 'csr', error: null })
  })

  it('leaves text without a comma alone while typing', () => {
    expect(enterTags(['xss'], 'csr', { whole: false })).toEqual({ tags: ['xss'], draft: 'csr', error: null })
  })

  it('adds a pasted list in order, skipping blanks and tags already there', () => {
    expect(enterTags(['xss'], 'sqli, , XSS,csrf', { whole: true })).toEqual({ tags: ['xss', 'sqli', 'csrf'], draft: '', error: null })
  })

  it('keeps the first refused entry and what follows in the input, with the reason', () => {
    expect(enterTags([], 'sqli, bad tag, csrf, ne', { whole: false })).toEqual({
      tags: ['sqli'],
      draft: 'bad tag, csrf, ne',
      error: '"bad tag" is not a tag: use lowercase words joined by hyphens, like sql-injection',
    })
    expect(enterTags([], 'bad tag,', { whole: false })).toMatchObject({ tags: [], draft: 'bad tag' })
  })
})

describe('suggestions', () => {
  const suggestions = [
    { tag: 'xss', count: 40 },
    { tag: 'stored-xss', count: 12 },
    { tag: 'dom-xss-sink', count: 3 },
    { tag: 'csrf', count: 25 },
    { tag: 'tls', count: 60 },
    { tag: 'exposure', count: 9 },
  ]
  const tags = (list: { tag: string }[]) => list.map((suggestion) => suggestion.tag)

  it('match what is typed, starts of words first, then the most used', () => {
    expect(tags(matchingSuggestions(suggestions, 'xs', []))).toEqual(['xss', 'stored-xss', 'dom-xss-sink'])
    // "stored-xss" and "dom-xss-sink" have a word starting with s; the others merely contain one.
    expect(tags(matchingSuggestions(suggestions, 's', []))).toEqual(['stored-xss', 'dom-xss-sink', 'tls', 'xss', 'csrf', 'exposure'])
  })

  it('read what is typed as a tag is read: trimmed and lowercased', () => {
    expect(tags(matchingSuggestions(suggestions, '  CSR ', []))).toEqual(['csrf'])
  })

  it('leave out the tags already chosen', () => {
    expect(tags(matchingSuggestions(suggestions, 'xss', ['xss']))).toEqual(['stored-xss', 'dom-xss-sink'])
  })

  it('are the most used when nothing is typed, at most the limit', () => {
    const many = Array.from({ length: SUGGESTION_LIMIT + 5 }, (_, index) => ({ tag: `tag-${index}`, count: index }))
    const shown = matchingSuggestions(many, '', [])
    expect(shown).toHaveLength(SUGGESTION_LIMIT)
    expect(shown[0]).toEqual({ tag: `tag-${SUGGESTION_LIMIT + 4}`, count: SUGGESTION_LIMIT + 4 })
  })

  it('are none when nothing matches', () => {
    expect(matchingSuggestions(suggestions, 'ldap', [])).toEqual([])
  })
})

describe('tag lists', () => {
  it('are the same in any order', () => {
    expect(sameTags(['a', 'b'], ['b', 'a'])).toBe(true)
    expect(sameTags(['a', 'b'], ['a'])).toBe(false)
    expect(sameTags(['a', 'b'], ['a', 'c'])).toBe(false)
  })

  it('differ by the tags added and removed', () => {
    expect(tagChanges(['a', 'b'], ['b', 'c', 'd'])).toEqual({ added: ['c', 'd'], removed: ['a'] })
  })
})

/** A document's tags behind adds and removes whose completion each test controls. */
function document(initial: string[]) {
  const calls: { change: 'add' | 'remove'; tag: string; resolve(): void; reject(error: Error): void }[] = []
  const call = (change: 'add' | 'remove') =>
    vi.fn((tag: string) => new Promise<void>((resolve, reject) => void calls.push({ change, tag, resolve, reject })))
  const changes = { add: call('add'), remove: call('remove') }
  return { saver: new TagSaver(initial, changes), changes, calls }
}

/** Lets the saver's promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('saving tags', () => {
  it('saves a list as single removes, then adds', async () => {
    const { saver, calls } = document(['a', 'b'])
    const saving = saver.save(['b', 'c'])
    await settle()
    expect(calls.map(({ change, tag }) => `${change} ${tag}`)).toEqual(['remove a'])
    calls[0]!.resolve()
    await settle()
    expect(calls.map(({ change, tag }) => `${change} ${tag}`)).toEqual(['remove a', 'add c'])
    calls[1]!.resolve()
    await expect(saving).resolves.toBeUndefined()
  })

  it('runs overlapping saves one after another, never repeating a change', async () => {
    const { saver, calls, changes } = document([])
    const first = saver.save(['a'])
    const second = saver.save(['a', 'b'])
    await settle()
    expect(calls).toHaveLength(1)
    calls[0]!.resolve()
    await first
    await settle()
    calls[1]!.resolve()
    await second
    expect(changes.add.mock.calls).toEqual([['a'], ['b']])
  })

  it('names the change that failed, and the next save tries it again', async () => {
    const { saver, calls, changes } = document([])
    const failing = saver.save(['a'])
    await settle()
    calls[0]!.reject(new Error('offline'))
    const error = await failing.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TagChangeError)
    expect(describeTagError(error)).toBe('“a” was not added. Check your connection and try again.')

    const retry = saver.save(['a', 'b'])
    await settle()
    calls[1]!.resolve()
    await settle()
    calls[2]!.resolve()
    await retry
    expect(changes.add.mock.calls).toEqual([['a'], ['a'], ['b']])
  })

  it('saves against the list the document holds now', async () => {
    const { saver, calls, changes } = document(['a'])
    saver.follow(['a', 'z'])
    const saving = saver.save(['a'])
    await settle()
    calls[0]!.resolve()
    await saving
    expect(changes.remove.mock.calls).toEqual([['z']])
    expect(changes.add).not.toHaveBeenCalled()
  })

  it('describes other errors with the usual message', () => {
    expect(describeTagError(new Error('boom'))).toBe(DEFAULT_SAVE_ERROR)
    expect(describeTagError(new TagChangeError('remove', 'xss', null))).toBe('“xss” was not removed. Check your connection and try again.')
  })
})
