// Files reach the parsers as text chunks (AsyncIterable<string>) so that the browser (File.stream),
// Node (fs streams) and tests (strings) feed them alike, and nothing needs the whole file at once.
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'

const newlinesIn = (text: string) => {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}

/**
 * The line of a chunk's first byte that is not UTF-8, counted from the chunk's first line. Found
 * by decoding the chunk alone: up to three replacement characters at its start may be a character
 * the chunk before began, so the first one after those is taken when there is one.
 */
function badByteLine(chunk: Uint8Array): number {
  const text = new TextDecoder('utf-8').decode(chunk)
  const lead = /^\uFFFD{0,3}/.exec(text)![0].length
  const bad = text.indexOf('\uFFFD', lead) >= 0 ? text.indexOf('\uFFFD', lead) : 0
  return newlinesIn(text.slice(0, bad))
}

/**
 * Decodes a byte stream as UTF-8, chunk by chunk (a character split over two chunks stays whole).
 * Given the format it is read as, bytes that are not UTF-8 are refused as that format's file, with
 * their line; without, they read as U+FFFD (a reader that names the line itself).
 */
export async function* decodeBytes(
  stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  strictFor?: string,
): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8', { fatal: strictFor !== undefined })
  let line = 1
  const decode = (bytes?: Uint8Array) => {
    try {
      const text = bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode()
      if (strictFor !== undefined) line += newlinesIn(text)
      return text
    } catch {
      throw new ScanParseError(strictFor!, `line ${line + (bytes ? badByteLine(bytes) : 0)}`, 'not UTF-8 text')
    }
  }
  if ('getReader' in stream) {
    // Browsers without async iteration of ReadableStream read it this way.
    const reader = stream.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        yield decode(value)
      }
    } finally {
      reader.releaseLock()
    }
  } else {
    for await (const bytes of stream) yield decode(bytes)
  }
  const rest = decode()
  if (rest) yield rest
}

/** A string as chunks, as a file would arrive. */
export async function* textChunks(text: string, size = 65_536): AsyncIterable<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size)
}

export interface LineLimits {
  /** The longest line taken (PARSE_LIMITS.maxLineChars unless said). */
  maxLineChars?: number
  /** The error for a line that is not taken, by where it is and why (a ScanParseError of the format unless said). */
  refusal?: (where: string, reason: string) => Error
}

/** The lines of a text source with their numbers (from 1); a line over the limit is an error. */
export async function* numberedLines(
  source: AsyncIterable<string>,
  formatLabel: string,
  {
    maxLineChars = PARSE_LIMITS.maxLineChars,
    refusal = (where, reason) => new ScanParseError(formatLabel, where, reason),
  }: LineLimits = {},
): AsyncIterable<{ line: string; number: number }> {
  const tooLong = (number: number) => refusal(`line ${number}`, `longer than ${maxLineChars} characters`)
  let pending = ''
  let number = 0
  for await (const chunk of source) {
    pending += chunk
    let end: number
    while ((end = pending.indexOf('\n')) >= 0) {
      number++
      const line = pending.slice(0, end).replace(/\r$/, '')
      if (line.length > maxLineChars) throw tooLong(number)
      yield { line, number }
      pending = pending.slice(end + 1)
    }
    if (pending.length > maxLineChars) throw tooLong(number + 1)
  }
  if (pending.length > 0) yield { line: pending.replace(/\r$/, ''), number: number + 1 }
}
