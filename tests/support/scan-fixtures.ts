// Scanner fixture files for the parsers' unit tests (tests/fixtures/scans/<format>/<name>).
import { readdirSync, readFileSync } from 'node:fs'
import type { ParsedScan, ScanParser } from '#domain/scan-import/parsed-scan.ts'
import { textChunks } from '#domain/scan-import/text-source.ts'

const root = new URL('../fixtures/scans/', import.meta.url)

export const fixtureText = (format: string, name: string) => readFileSync(new URL(`${format}/${name}`, root), 'utf8')

/** The fixture files of a format (SOURCES.md aside). */
export const fixtureNames = (format: string) => readdirSync(new URL(`${format}/`, root)).filter((name) => name !== 'SOURCES.md')

/** Every fixture of every format, for detection tests. */
export const allFixtures = () =>
  readdirSync(root).flatMap((format) => fixtureNames(format).map((name) => ({ format, name, text: fixtureText(format, name) })))

/** A parser run on a string, fed in small chunks so that values cross chunk boundaries. */
export const parseText = (parser: ScanParser, text: string, chunk = 4096): Promise<ParsedScan> => parser.parse(textChunks(text, chunk))

export const parseFixture = (parser: ScanParser, format: string, name: string) => parseText(parser, fixtureText(format, name))

export function severityCounts(scan: ParsedScan): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const finding of scan.findings) counts[finding.severity] = (counts[finding.severity] ?? 0) + 1
  return counts
}
