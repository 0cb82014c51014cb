// Format detection for the JSON, JSONL and CSV formats: every fixture is recognised as its own
// format, and look-alike files (and other formats' fixtures) as none of these.
import { describe, expect, it } from 'vitest'
import { allFixtures } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, SCAN_PARSERS } from './formats.ts'
import { SNIFF_CHARS } from './parsed-scan.ts'

const JSON_FORMATS = [
  'zap_json',
  'nuclei_json',
  'prowler_ocsf_json',
  'prowler_csv',
  'testssl_json',
  'httpx_jsonl',
  'naabu_jsonl',
  'sarif',
  'masscan_json',
  'checkov_json',
  'testssl_csv',
  'sslyze_json',
  'kube_bench_json',
  'scoutsuite_js',
  'kube_hunter_json',
  'arachni_json',
]
const registered = new Set(SCAN_PARSERS.map((p) => p.format as string))
const fixtures = allFixtures()
// Fixtures named "broken-…" or "empty…" are for error handling, not detection.
const detectable = fixtures.filter((f) => JSON_FORMATS.includes(f.format) && registered.has(f.format) && !/^(broken|empty)/.test(f.name))

describe('format detection', () => {
  it.each(detectable.map((f) => [`${f.format}/${f.name}`, f] as const))('recognises %s', (_, fixture) => {
    expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format).toBe(fixture.format)
  })

  it.each(fixtures.filter((f) => f.format === 'not-scans').map((f) => [f.name, f] as const))('recognises nothing in %s', (_, fixture) => {
    expect(detectFormat(fixture.text.slice(0, SNIFF_CHARS))).toBeNull()
  })

  it.each(
    fixtures.filter((f) => !JSON_FORMATS.includes(f.format) && f.format !== 'not-scans').map((f) => [`${f.format}/${f.name}`, f] as const),
  )('does not take %s for a JSON or CSV format', (_, fixture) => {
    const format = detectFormat(fixture.text.slice(0, SNIFF_CHARS))?.format ?? null
    expect(JSON_FORMATS).not.toContain(format)
  })
})
