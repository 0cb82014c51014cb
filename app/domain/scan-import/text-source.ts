// Files reach the parsers as text chunks (AsyncIterable<string>) so that the browser (File.stream),
// Node (fs streams) and tests (strings) feed them alike, and nothing needs the whole file at once.
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'

/** Decodes a byte stream as UTF-8, chunk by chunk (a character split over two chunks stays whole). */
export async function* decodeBytes(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8')
  if ('getReader' in stream) {
    // Browsers without async iteration of ReadableStream read it this way.
    const reader = stream.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        yield decoder.decode(value, { stream: true })
      }
    } finally {
      reader.releaseLock()
    }
  } else {
    for await (const bytes of stream) yield decoder.decode(bytes, { stream: true })
  }
  const rest = decoder.decode()
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
