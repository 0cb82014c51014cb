import { describe, expect, it } from 'vitest'
import { fixtureText, parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { ScanParseError, type ParsedScan } from './parsed-scan.ts'
import { testsslCsvParser } from './testssl-csv.ts'
import { testsslJsonParser } from './testssl-json.ts'

const parse = (name: string) => parseFixture(testsslCsvParser, 'testssl_csv', name)
/** The findings without where in the file each was read (a JSON path or a CSV line). */
const placeless = (scan: ParsedScan) => scan.findings.map(({ raw: { where: _, ...raw }, ...finding }) => ({ ...finding, raw }))
const fingerprints = (scan: ParsedScan) => Promise.all(scan.findings.map((f) => parsedFingerprint('network', f)))

describe('testsslCsvParser', () => {
  it('gives the same findings, fingerprints, certificate and figures as the JSON of the same run', async () => {
    const csv = await parse('local-openssl-s_server.csv')
    const json = await parseFixture(testsslJsonParser, 'testssl_json', 'local-openssl-s_server.json')
    expect(csv.format).toBe('testssl_csv')
    expect(csv.findings).toHaveLength(10)
    expect(severityCounts(csv)).toEqual({ critical: 1, high: 5, medium: 1, low: 3 })
    expect(placeless(csv)).toEqual(placeless(json))
    expect(await fingerprints(csv)).toEqual(await fingerprints(json))
    expect(csv.assets).toEqual(json.assets)
    expect(csv.assets).toEqual([
      {
        type: 'certificate',
        value: 'tls.example.test',
        parent: '127.0.0.1',
        notAfter: Date.UTC(2027, 0, 1, 17, 54),
        issuer: 'tls.example.test',
      },
    ])
    expect(csv.targets).toEqual(json.targets)
    // The JSON ends with a "scanTime" INFO entry that the CSV does not have.
    expect(csv.statistics).toEqual({ ...json.statistics, checks: json.statistics.checks! - 1, info: json.statistics.info! - 1 })
    expect(csv.findings.find((f) => f.ruleId === 'LUCKY13')).toEqual({
      ruleId: 'LUCKY13',
      title: 'LUCKY13: potentially vulnerable, uses TLS CBC ciphers',
      severity: 'low',
      target: { kind: 'host', host: '127.0.0.1', ip: undefined, port: 48443, protocol: 'tcp' },
      cve: ['CVE-2013-0169'],
      cwe: ['CWE-310'],
      evidence: 'potentially vulnerable, uses TLS CBC ciphers',
      raw: { severity: 'LOW', where: 'line 75' },
    })
  })

  it('reads the same file twice to the same findings', async () => {
    expect((await parse('references.csv')).findings).toEqual((await parse('references.csv')).findings)
  })

  it("reads other testssl.sh versions' files: CVE lists, hosts without an address, an empty report, a target it could not reach", async () => {
    const cves = await parse('many_cves.csv')
    expect(cves.findings.map((f) => [f.ruleId, f.cve, f.cwe, f.target])).toEqual([
      [
        'DROWN',
        ['CVE-2016-0800', 'CVE-2016-0703'],
        ['CWE-310'],
        { kind: 'host', host: 'www.defectdojo.org', ip: '185.199.109.153', port: 443, protocol: 'tcp' },
      ],
    ])
    const references = await parse('references.csv')
    expect(references.targets).toEqual(['asdf.com:443'])
    expect(references.findings.find((f) => f.ruleId === 'cipherlist_LOW')?.target).toEqual({
      kind: 'host',
      host: 'asdf.com',
      ip: undefined,
      port: 443,
      protocol: 'tcp',
    })
    const empty = await parse('defectdojo_no_vuln.csv')
    expect(empty.findings).toEqual([])
    expect(detectFormat(fixtureText('testssl_csv', 'defectdojo_no_vuln.csv'))?.format).toBe('testssl_csv')
    const failed = await parse('failed_target.csv')
    expect(failed.findings).toEqual([])
    expect(failed.notes).toEqual([
      {
        level: 'warning',
        where: 'line 2',
        message: "testssl.sh: Can't connect to '1.2.3.4:443' Make sure a firewall is not between you and your scanning target!",
      },
    ])
  })

  it('skips rows it cannot read and refuses a broken file with the format and line', async () => {
    const header = '"id","fqdn/ip","port","severity","finding","cve","cwe"\n'
    const scan = await parseText(
      testsslCsvParser,
      `${header}"x","h/1.2.3.4","443","HIGH","bad","",""\n"y","h","443"\n"","h","443","HIGH","","",""\n`,
    )
    expect(scan.findings.map((f) => f.title)).toEqual(['x: bad'])
    expect(scan.notes.map((n) => [n.where, n.message])).toEqual([
      ['line 3', '3 fields where the header has 7'],
      ['line 4', 'the check has no id'],
    ])
    const error = await parseText(testsslCsvParser, `${header}"x","h","443","HIGH","a"b","",""\n`).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ScanParseError)
    expect((error as ScanParseError).message).toMatch(/^testssl\.sh CSV, line 2: /)
    const unclosed = await parseText(testsslCsvParser, `${header}"x","h","443","HIGH","${'a'.repeat(1_100_000)}`).catch((e: unknown) => e)
    expect((unclosed as ScanParseError).message).toMatch(/^testssl\.sh CSV, a record: longer than 1048576 characters/)
    await expect(parseText(testsslCsvParser, '')).rejects.toThrow(/^testssl\.sh CSV, line 1: the file is empty/)
  })
})
