import { describe, expect, it } from 'vitest'
import { JsonGuard, jsonLines, peekSource, streamJsonValues, type JsonValue } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'

async function collect(source: AsyncIterable<JsonValue>): Promise<JsonValue[]> {
  const out: JsonValue[] = []
  for await (const item of source) out.push(item)
  return out
}

const values = (text: string, paths: string[], chunk = 3) =>
  collect(streamJsonValues(textChunks(text, chunk), { formatLabel: 'Test JSON', paths }))

async function failure(promise: Promise<unknown>): Promise<ScanParseError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ScanParseError)
  return error as ScanParseError
}

describe('streamJsonValues', () => {
  it('emits the values at the chosen paths with their JSONPath and line, across chunk boundaries', async () => {
    const doc = '{"v": "2", "site": [\n {"@name": "a", "alerts": [{"id": 1},\n {"id": 2}]},\n {"@name": "b", "alerts": [{"id": 3}]}]}'
    const out = await values(doc, ['$.v', '$.site.*.@name', '$.site.*.alerts.*'])
    expect(out.map((v) => [v.path, v.value, v.line])).toEqual([
      ['$.v', '2', 1],
      ['$.site[0].@name', 'a', 2],
      ['$.site[0].alerts[0]', { id: 1 }, 2],
      ['$.site[0].alerts[1]', { id: 2 }, 3],
      ['$.site[1].@name', 'b', 4],
      ['$.site[1].alerts[0]', { id: 3 }, 4],
    ])
  })

  it('cuts long strings, escapes included, and keeps the rest of the document', async () => {
    const long = 'é\\"'.repeat(PARSE_LIMITS.maxFieldChars)
    const out = await values(`[{"a": "${long}", "b": "after"}]`, ['$.*'], 1000)
    const value = out[0]?.value as { a: string; b: string }
    expect(value.b).toBe('after')
    // The guard bounds memory; parsers cut fields to their own limits after it.
    expect(value.a.length).toBeLessThanOrEqual(PARSE_LIMITS.maxFieldChars + 1)
    expect(value.a.endsWith('…')).toBe(true)
    expect(value.a.startsWith('é"é"')).toBe(true)
  })

  it('refuses nesting deeper than the limit, naming the format and line', async () => {
    const deep = `{"a":\n${'['.repeat(PARSE_LIMITS.maxDepth + 5)}${']'.repeat(PARSE_LIMITS.maxDepth + 5)}}`
    const error = await failure(values(deep, ['$.a'], 7))
    expect(error.message).toBe(`Test JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`)
  })

  it('names the line and the last path for invalid JSON', async () => {
    const error = await failure(values('[\n{"a": 1},\n{"a": 2}\n{"a": 3}]', ['$.*']))
    expect(error.formatLabel).toBe('Test JSON')
    expect(error.where).toBe('line 4 (after $[1])')
    expect(error.reason).toMatch(/^not valid JSON: unexpected/)
  })

  it('says a truncated document is truncated', async () => {
    const error = await failure(values('{"site": [{"alerts": [{"a": 1}, {"a": ', ['$.site.*.alerts.*']))
    expect(error.reason).toBe('the file ends in the middle of a JSON value (is it truncated?)')
  })

  it('refuses content after the document', async () => {
    const error = await failure(values('{"a": 1}\n{"a": 2}', ['$.a']))
    expect(error.where).toBe('line 2 (after $.a)')
  })

  it('reads a document with a byte order mark; an empty one gives nothing', async () => {
    expect((await values('\uFEFF[1, 2]', ['$.*'])).map((v) => v.value)).toEqual([1, 2])
    expect(await values('  \n ', ['$.*'])).toEqual([])
  })
})

describe('JsonGuard', () => {
  it('keeps newlines inside a cut string so that line numbers stay right', () => {
    const guard = new JsonGuard('Test', 3)
    expect(guard.pass('["abcdef\nxy", "ok"]')).toBe('["abc…\n", "ok"]')
    expect(guard.line).toBe(2)
  })
})

describe('jsonLines', () => {
  it('parses each non-empty line and names the line of a broken one', async () => {
    const lines = jsonLines(textChunks('{"a": 1}\n\n{"a": 2}\r\n{"a": \n', 4), 'Test JSONL')
    const seen: unknown[] = []
    const error = await failure(
      (async () => {
        for await (const { value, line } of lines) seen.push([value, line])
      })(),
    )
    expect(seen).toEqual([
      [{ a: 1 }, 1],
      [{ a: 2 }, 3],
    ])
    expect(error.where).toBe('line 4')
  })

  it('refuses a line nested too deep', async () => {
    const error = await failure(collect(jsonLines(textChunks(`${'['.repeat(100)}${']'.repeat(100)}`), 'Test JSONL')))
    expect(error.message).toBe(`Test JSONL, line 1: nested deeper than ${PARSE_LIMITS.maxDepth} levels`)
  })
})

describe('peekSource', () => {
  it('gives the first non-blank character and the whole source again', async () => {
    const { first, source } = await peekSource(textChunks('  \n  [1]', 2))
    expect(first).toBe('[')
    let text = ''
    for await (const chunk of source) text += chunk
    expect(text).toBe('  \n  [1]')
  })
})
