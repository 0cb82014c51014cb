// CSV read record by record from a text source: a quoted field's line breaks never split a record,
// no record may grow past PARSE_LIMITS.maxLineChars (an unclosed quote would otherwise read the rest
// of the file into one), and every row says on which line it starts.
import Papa from 'papaparse'
import { PARSE_LIMITS, ScanParseError } from './parsed-scan.ts'

/** Complete CSV records of a text source: each yielded block ends at a line break outside quotes. */
export async function* csvBlocks(source: AsyncIterable<string>, formatLabel: string): AsyncIterable<string> {
  let pending = ''
  let inQuotes = false
  let scanned = 0
  for await (const chunk of source) {
    pending += chunk
    let cut = -1
    for (let i = scanned; i < pending.length; i++) {
      const c = pending.charCodeAt(i)
      if (c === 34) inQuotes = !inQuotes
      else if (c === 10 && !inQuotes) cut = i
    }
    scanned = pending.length
    if (cut >= 0) {
      yield pending.slice(0, cut + 1)
      pending = pending.slice(cut + 1)
      scanned = pending.length
    }
    if (pending.length > PARSE_LIMITS.maxLineChars) {
      throw new ScanParseError(formatLabel, 'a record', `longer than ${PARSE_LIMITS.maxLineChars} characters (an unclosed quote?)`)
    }
  }
  if (pending.trim()) yield pending
}

export function countBreaks(text: string, from: number, to: number): number {
  let n = 0
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++
  return n
}

export interface CsvRow {
  cells: string[]
  /** The line the row starts on, from 1. */
  line: number
}

/** The rows of a CSV source (a leading BOM and blank lines dropped); a malformed row is refused with its line. */
export async function* csvRows(source: AsyncIterable<string>, options: { formatLabel: string; delimiter: string }): AsyncIterable<CsvRow> {
  let line = 1
  let firstBlock = true
  for await (const block of csvBlocks(source, options.formatLabel)) {
    const body = firstBlock ? block.replace(/^\uFEFF/, '') : block
    firstBlock = false
    let cursor = 0
    let lineAt = line
    let failure: ScanParseError | null = null
    const rows: CsvRow[] = []
    Papa.parse<string[]>(body, {
      delimiter: options.delimiter,
      skipEmptyLines: true,
      step: (step, parser) => {
        // The row starts after the previous row's end and the line breaks (blank lines) that follow it.
        const start = cursor
        cursor = step.meta.cursor
        let rowLine = lineAt
        for (let i = start; i < cursor && (body[i] === '\n' || body[i] === '\r'); i++) if (body[i] === '\n') rowLine++
        lineAt += countBreaks(body, start, cursor)
        const error = step.errors[0]
        if (error) {
          failure = new ScanParseError(options.formatLabel, `line ${rowLine}`, error.message)
          parser.abort()
          return
        }
        rows.push({ cells: step.data, line: rowLine })
      },
    })
    yield* rows
    if (failure) throw failure
    line += countBreaks(body, 0, body.length)
  }
}
