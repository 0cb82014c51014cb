import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EPSS_LIMITS, readEpssScores, type EpssScore } from './epss-feed.ts'
import { FeedError } from './feed-stream.ts'
import { KEV_LIMITS, parseKevCatalogue, readKevCatalogue } from './kev-feed.ts'

const FIXTURES = join(import.meta.dirname, '../../../tests/fixtures/vuln-intel')
const kevText = readFileSync(join(FIXTURES, 'known_exploited_vulnerabilities.json'), 'utf8')
const epssPacked = readFileSync(join(FIXTURES, 'epss_scores-2026-12-02.csv.gz'))

/** Bytes as a stream of chunks of `size` (the parsers must not care where chunks end). */
const streamOf = (bytes: Uint8Array, size = 7) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.byteLength; at += size) controller.enqueue(bytes.slice(at, at + size))
      controller.close()
    },
  })

const utf8 = (text: string) => new TextEncoder().encode(text)
/** CompressionStream's types take any BufferSource; its chunks here are bytes. */
const gzipStream = () => new CompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>
const gzip = async (bytes: Uint8Array) =>
  new Uint8Array(await new Response(streamOf(bytes, 1 << 16).pipeThrough(gzipStream())).arrayBuffer())

async function epss(bytes: Uint8Array) {
  const scores: EpssScore[] = []
  const edition = await readEpssScores(streamOf(bytes), (s) => scores.push(s))
  return { edition, scores }
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(FeedError)
  return (error as FeedError).message
}

describe('the KEV catalogue', () => {
  it('reads the published JSON: each CVE with its dates and known ransomware use', async () => {
    const catalogue = await readKevCatalogue(streamOf(utf8(kevText)))
    expect(catalogue.catalogVersion).toBe('2026.12.01')
    expect(catalogue.dateReleased).toBe('2026-12-01T17:02:11.4527Z')
    expect(catalogue.entries.size).toBe(5)
    expect(catalogue.entries.get('CVE-2021-44228')).toEqual({ dateAdded: '2021-12-10', dueDate: '2021-12-24', ransomware: true })
    expect(catalogue.entries.get('CVE-2024-3400')).toEqual({ dateAdded: '2024-04-12', dueDate: '2024-04-19', ransomware: false })
  })

  const catalogue = JSON.parse(kevText) as { count: number; vulnerabilities: Record<string, unknown>[] }
  const changed = (change: (c: typeof catalogue) => void) => {
    const copy = structuredClone(catalogue)
    change(copy)
    return JSON.stringify(copy)
  }

  it.each([
    ['not JSON', '{"catalogVersion": ', 'KEV catalogue, the file: not JSON'],
    ['a list instead of the catalogue', '[]', 'KEV catalogue, the catalogue:'],
    ['a count that is not the list', changed((c) => (c.count = 4)), 'count is not the number of vulnerabilities listed'],
    ['a CVE id that is not one', changed((c) => (c.vulnerabilities[1]!.cveID = 'CVE-23-1')), 'vulnerability 2: cveID: Expected a CVE id'],
    ['a date that is not one', changed((c) => (c.vulnerabilities[0]!.dueDate = '2024-13-45')), 'vulnerability 1: dueDate: Expected a day'],
    [
      'an unknown ransomware value',
      changed((c) => (c.vulnerabilities[2]!.knownRansomwareCampaignUse = 'Maybe')),
      'vulnerability 3: knownRansomwareCampaignUse',
    ],
    [
      'an overlong text',
      changed((c) => (c.vulnerabilities[0]!.product = 'x'.repeat(KEV_LIMITS.maxTextChars + 1))),
      'vulnerability 1: product',
    ],
  ])('refuses %s, saying what and where', (_, text, message) => {
    expect(() => parseKevCatalogue(text)).toThrow(FeedError)
    expect(() => parseKevCatalogue(text)).toThrow(message)
  })

  it('refuses a file larger than the bound before reading it all', async () => {
    const huge = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1 << 20).fill(32))
      },
    })
    expect(await refusal(readKevCatalogue(huge))).toBe(`KEV catalogue, the file: larger than ${KEV_LIMITS.maxBytes} bytes`)
  })
})

describe('the EPSS scores', () => {
  it('reads the published gzip file row by row, with its model and day', async () => {
    const { edition, scores } = await epss(epssPacked)
    expect(edition).toEqual({ modelVersion: 'v2025.03.14', scoreDate: '2026-12-02', rows: 11 })
    expect(scores).toHaveLength(11)
    expect(scores).toContainEqual({ cve: 'CVE-2021-44228', epss: 0.94358, percentile: 0.99955 })
    expect(scores[0]).toEqual({ cve: 'CVE-1999-0001', epss: 0.01243, percentile: 0.78315 })
  })

  it('reads the same file unpacked (a server may have unpacked it), with CRLF breaks and without the comment', async () => {
    const text = new TextDecoder().decode(
      new Uint8Array(await new Response(new Blob([epssPacked]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()),
    )
    expect((await epss(utf8(text))).scores).toHaveLength(11)
    const { edition, scores } = await epss(utf8(text.split('\n').slice(1).join('\r\n')))
    expect(edition).toEqual({ modelVersion: null, scoreDate: null, rows: 11 })
    expect(scores[1]).toEqual({ cve: 'CVE-2017-0144', epss: 0.94371, percentile: 0.99961 })
  })

  const file = (...rows: string[]) =>
    ['#model_version:v2025.03.14,score_date:2026-12-02T00:00:00+0000', 'cve,epss,percentile', ...rows].join('\n')

  it.each([
    ['another header', 'cve,score\nCVE-2021-44228,0.9', 'EPSS scores, line 1: expected the header "cve,epss,percentile"'],
    ['a score above 1', file('CVE-2021-44228,1.5,0.9'), 'EPSS scores, line 3:'],
    ['a score that is not a number', file('CVE-2021-44228,0x1,0.9'), 'EPSS scores, line 3: Expected a number'],
    ['a negative percentile', file('CVE-2021-44228,0.5,-0.1'), 'EPSS scores, line 3: Expected a number'],
    ['a row with a fourth cell', file('CVE-2021-44228,0.5,0.9', 'CVE-2024-3400,0.5,0.9,x'), 'EPSS scores, line 4:'],
    ['a CVE id that is not one', file('CVE-2021-44228,0.5,0.9', '=HYPERLINK("x"),0.5,0.9'), 'EPSS scores, line 4: Expected a CVE id'],
    ['a score date that is not one', file().replace('2026-12-02', '2026-02-31'), 'EPSS scores, line 1: the comment line'],
    [
      'an overlong line',
      file(`CVE-2021-44228,0.${'1'.repeat(EPSS_LIMITS.maxLineChars)},0.9`),
      'EPSS scores, line 3: longer than 1024 characters',
    ],
    ['no header at all', '', 'EPSS scores, the file: no header'],
  ])('refuses %s, saying what and where', async (_, text, message) => {
    expect(await refusal(epss(await gzip(utf8(text))))).toContain(message)
  })

  it('refuses text that is not UTF-8', async () => {
    const bytes = new Uint8Array([...utf8(file('CVE-2021-44228,0.5,0.9')), 0x0a, 0xff, 0xfe])
    expect(await refusal(epss(bytes))).toBe('EPSS scores, line 4: not UTF-8 text')
  })

  it('refuses a broken gzip file', async () => {
    const packed = await gzip(utf8(file('CVE-2021-44228,0.5,0.9')))
    expect(await refusal(epss(packed.slice(0, packed.byteLength - 12)))).toContain('cannot be unpacked')
  })

  it('refuses a small file that unpacks past the bound, without unpacking it all', async () => {
    const row = utf8('CVE-2021-44228,0.5,0.9\n'.repeat(40_000))
    // About 4 MB of rows, packed into a few kB; the bound here is 1 MB.
    const bomb = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8(`${file()}\n`))
        for (let n = 0; n < 4; n++) controller.enqueue(row)
        controller.close()
      },
    }).pipeThrough(gzipStream())
    let rows = 0
    const refused = await refusal(readEpssScores(bomb, () => rows++, { ...EPSS_LIMITS, maxBytes: 1 << 20 }))
    expect(refused).toBe(`EPSS scores, the unpacked file: larger than ${1 << 20} bytes`)
    expect(rows).toBeLessThan(50_000)
  })

  it('refuses more rows than the bound', async () => {
    const text = file('CVE-2021-44228,0.5,0.9', 'CVE-2024-3400,0.5,0.9', 'CVE-2023-4966,0.5,0.9')
    expect(await refusal(readEpssScores(streamOf(utf8(text)), () => {}, { ...EPSS_LIMITS, maxRows: 2 }))).toBe(
      'EPSS scores, line 5: more than 2 rows',
    )
  })
})
