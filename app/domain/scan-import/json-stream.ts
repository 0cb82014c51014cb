// Streaming JSON for scanner files: whole documents are read chunk by chunk and only the values at
// the paths a parser asks for (each alert, each result) are built, one at a time; JSONL is read
// line by line. Hostile input is bounded before the tokenizer sees it: strings are cut to the field
// limit and nesting deeper than the depth limit is refused, so neither memory nor recursion follows
// the file. Errors name the format and the line (and the path when the document had reached one).
import { JSONParser } from '@streamparser/json'
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'
import { numberedLines } from './text-source.ts'

export interface JsonValue {
  value: unknown
  /** Where the value was in the document, as JSONPath: $.site[0].alerts[3]. */
  path: string
  /** The line on which the value ended. */
  line: number
}

const QUOTE = 34
const BACKSLASH = 92
const NEWLINE = 10
const OPEN_BRACE = 123
const OPEN_BRACKET = 91
const CLOSE_BRACE = 125
const CLOSE_BRACKET = 93

/**
 * Passes JSON text through, cutting every string to `maxString` characters (an ellipsis marks the
 * cut) and refusing nesting deeper than `maxDepth`. It keeps its state across chunks.
 */
export class JsonGuard {
  private inString = false
  private escaped = false
  private cutting = false
  private stringLength = 0
  private depth = 0
  line = 1
  private readonly formatLabel: string
  private readonly maxString: number
  private readonly maxDepth: number

  constructor(formatLabel: string, maxString: number = PARSE_LIMITS.maxFieldChars, maxDepth: number = PARSE_LIMITS.maxDepth) {
    this.formatLabel = formatLabel
    this.maxString = maxString
    this.maxDepth = maxDepth
  }

  pass(chunk: string): string {
    let out = ''
    let start = 0
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i)
      if (c === NEWLINE) {
        this.line++
        // A raw newline inside a string is invalid JSON: keep it so the tokenizer says so at this line.
        if (this.cutting) {
          out += '\n'
          start = i + 1
        }
        continue
      }
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false
          continue
        }
        if (c === QUOTE) {
          this.inString = false
          if (this.cutting) {
            this.cutting = false
            start = i
          }
          continue
        }
        if (this.cutting) {
          if (c === BACKSLASH) this.escaped = true
          continue
        }
        if (++this.stringLength > this.maxString) {
          out += `${chunk.slice(start, i)}…`
          this.cutting = true
          if (c === BACKSLASH) this.escaped = true
          continue
        }
        if (c === BACKSLASH) this.escaped = true
        continue
      }
      if (c === QUOTE) {
        this.inString = true
        this.stringLength = 0
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++this.depth > this.maxDepth) {
          throw new ScanParseError(this.formatLabel, `line ${this.line}`, `nested deeper than ${this.maxDepth} levels`)
        }
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth--
      }
    }
    return this.cutting ? out : out + chunk.slice(start)
  }
}

type StackElement = { key?: string | number }

function pathOf(stack: readonly StackElement[], key: string | number | undefined): string {
  let path = '$'
  for (const element of [...stack.slice(1), { key }]) {
    if (typeof element.key === 'number') path += `[${element.key}]`
    else if (typeof element.key === 'string')
      path += /^[A-Za-z_@$][\w@$-]*$/.test(element.key) ? `.${element.key}` : `[${JSON.stringify(element.key)}]`
  }
  return path
}

/** The parser's message in analysts' words. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (/ended in (the )?mid/i.test(message)) return 'the file ends in the middle of a JSON value (is it truncated?)'
  const token = /Unexpected "(.+?)" at/.exec(message) ?? /Unexpected \w+ \((".*?"|.*?)\)/.exec(message)
  const found = token?.[1]
  if (found) return `not valid JSON: unexpected ${found.startsWith('"') ? found : `"${found}"`}`
  return `not valid JSON: ${message.slice(0, 200)}`
}

export interface JsonStreamOptions {
  /** The format's label, for errors: "OWASP ZAP JSON". */
  formatLabel: string
  /**
   * The values to emit, as @streamparser/json selectors: "$.site.*.alerts.*", "$.runs.*.tool". A
   * value is built only when it matches, and its parent does not keep it unless an ancestor is
   * emitted too: never ask for an ancestor of a streamed path, or it holds every streamed value.
   */
  paths: string[]
}

/** The values of a whole JSON document at the given paths, in document order, as they complete. */
export async function* streamJsonValues(source: AsyncIterable<string>, options: JsonStreamOptions): AsyncIterable<JsonValue> {
  const { formatLabel } = options
  const guard = new JsonGuard(formatLabel)
  const parser = new JSONParser({ paths: options.paths, keepStack: false })
  let line = 1
  let lastPath: string | null = null
  let ready: JsonValue[] = []
  parser.onValue = ({ value, key, stack }) => {
    lastPath = pathOf(stack, key)
    ready.push({ value, path: lastPath, line })
  }
  const fail = (error: unknown): never => {
    if (error instanceof ScanParseError) throw error
    const where = lastPath ? `line ${line} (after ${lastPath})` : `line ${line}`
    throw new ScanParseError(formatLabel, where, reasonOf(error))
  }
  let seen = false
  for await (const chunk of withoutBom(source)) {
    const text = guard.pass(chunk)
    let start = 0
    while (start <= text.length) {
      const end = text.indexOf('\n', start)
      const piece = end < 0 ? text.slice(start) : text.slice(start, end + 1)
      if (piece) {
        if (!seen && piece.trim()) seen = true
        if (parser.isEnded) {
          if (piece.trim()) fail(new Error(`Unexpected "${piece.trim()[0]}" at the end`))
        } else {
          try {
            parser.write(piece)
          } catch (error) {
            fail(error)
          }
        }
      }
      if (end < 0) break
      line++
      start = end + 1
    }
    if (ready.length) {
      const values = ready
      ready = []
      yield* values
    }
  }
  if (seen && !parser.isEnded) {
    try {
      parser.end()
    } catch (error) {
      fail(error)
    }
  }
  yield* ready
}

/** The values of a JSON Lines file, one per non-empty line, each bounded as a whole document is. */
export async function* jsonLines(source: AsyncIterable<string>, formatLabel: string): AsyncIterable<JsonValue> {
  for await (const { line, number } of numberedLines(withoutBom(source), formatLabel)) {
    if (!line.trim()) continue
    const guard = new JsonGuard(formatLabel)
    let text: string
    try {
      text = guard.pass(line)
    } catch {
      throw new ScanParseError(formatLabel, `line ${number}`, `nested deeper than ${PARSE_LIMITS.maxDepth} levels`)
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new ScanParseError(
        formatLabel,
        `line ${number}`,
        `not valid JSON: ${error instanceof Error ? error.message.slice(0, 200) : ''}`,
      )
    }
    yield { value, path: '$', line: number }
  }
}

/** The first non-blank character of a source, and the source again, whole. */
export async function peekSource(source: AsyncIterable<string>): Promise<{ first: string; source: AsyncIterable<string> }> {
  const iterator = source[Symbol.asyncIterator]()
  const head: string[] = []
  let first = ''
  while (!first) {
    const next = await iterator.next()
    if (next.done) break
    head.push(next.value)
    first = next.value.replace(/^\uFEFF/, '').trimStart()[0] ?? ''
  }
  async function* again(): AsyncIterable<string> {
    yield* head
    for (;;) {
      const next = await iterator.next()
      if (next.done) return
      yield next.value
    }
  }
  return { first, source: again() }
}

/** A source without a leading byte order mark. */
export async function* withoutBom(source: AsyncIterable<string>): AsyncIterable<string> {
  let first = true
  for await (const chunk of source) {
    yield first ? chunk.replace(/^\uFEFF/, '') : chunk
    first = false
  }
}
