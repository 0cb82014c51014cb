// The product writes dates and times one way: through app/ui/local-time.tsx, in the reader's
// language and zone (the PDF gets its formatter). A page that formats a date itself fails here.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const HELPER = 'app/ui/local-time.tsx'

/** Ways to write a date for people other than the helper. */
const OWN_FORMATS: { name: string; pattern: RegExp }[] = [
  // `Intl.DateTimeFormat()` with no arguments only asks for the reader's zone.
  { name: 'Intl.DateTimeFormat with a locale or options', pattern: /Intl\.DateTimeFormat\((?!\))/ },
  { name: 'toLocaleDateString / toLocaleTimeString', pattern: /\.toLocale(Date|Time)String\(/ },
  { name: 'a Date written with toLocaleString', pattern: /Date\([^)]*\)\.toLocaleString\(/ },
  { name: 'toDateString / toUTCString / toTimeString', pattern: /\.to(Date|UTC|Time)String\(/ },
  { name: 'an ISO date cut from toISOString', pattern: /toISOString\(\)\.slice\(/ },
]

/**
 * Machine text, not dates for people: file names, month keys, a date field's bounds, names given
 * to imported scans (stored with the scan), and the check that a zone name is valid.
 */
const MACHINE_TEXT: Record<string, string> = {
  'app/domain/report-export.ts': 'file names and CSV/JSON cells in ISO 8601',
  'app/domain/sla.ts': 'month keys',
  'app/features/reports/data/report-data.ts': 'month keys',
  'app/features/reports/findings/move-dialog.tsx': "the date field's min and max",
  'app/features/templates/library-tools.tsx': 'the export file name',
  'app/features/analyst/service-page/scan-files.ts': "an imported scan's default title",
  'app/features/analyst/service-page/import-panel.tsx': "an imported audit's default title",
  'app/domain/sign-in.ts': 'isTimeZone: whether a zone name is valid',
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.gen.ts') ? [path] : []
  })
}

/** Every line of `files` that writes a date its own way, as "file:line: what". */
function ownDateFormats(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) =>
    file === HELPER || file in MACHINE_TEXT
      ? []
      : read(file)
          .split('\n')
          .flatMap((line, index) =>
            OWN_FORMATS.filter(({ pattern }) => pattern.test(line)).map(({ name }) => `${file}:${index + 1}: ${name}`),
          ),
  )
}

describe('one date format', () => {
  it('no page, feature or document formats a date but through app/ui/local-time.tsx', () => {
    const files = sources('app')
    expect(files).toContain('app/features/reports/findings/finding-page.tsx')
    expect(ownDateFormats(files, (file) => readFileSync(join(ROOT, file), 'utf8'))).toEqual([])
  })

  it('would catch each way of writing a date itself', () => {
    const page = [
      "const a = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' })",
      'const b = when.toLocaleDateString()',
      "const c = new Date(at).toLocaleString('en-GB')",
      'const d = new Date(at).toISOString().slice(0, 10)',
      'const e = new Date(at).toUTCString()',
      'const zone = Intl.DateTimeFormat().resolvedOptions().timeZone',
      "const n = count.toLocaleString('en-GB')",
    ].join('\n')
    expect(ownDateFormats(['app/features/x/page.tsx'], () => page).map((hit) => hit.split(': ')[0])).toEqual([
      'app/features/x/page.tsx:1',
      'app/features/x/page.tsx:2',
      'app/features/x/page.tsx:3',
      'app/features/x/page.tsx:4',
      'app/features/x/page.tsx:5',
    ])
  })

  it('lists only machine-text files that exist', () => {
    const files = new Set(sources('app'))
    expect(Object.keys(MACHINE_TEXT).filter((file) => !files.has(file))).toEqual([])
  })
})
