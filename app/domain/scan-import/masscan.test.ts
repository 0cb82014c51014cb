import { describe, expect, it } from 'vitest'
import { fixtureText, parseText } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { masscanJsonParser, masscanXmlParser } from './masscan.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS, type ParsedScan } from './parsed-scan.ts'

const json = (name: string) => fixtureText('masscan_json', name)
const xml = (name: string) => fixtureText('masscan_xml', name)
const summary = (scan: ParsedScan) =>
  scan.findings.map((f) => [f.ruleId, f.severity, f.target.kind === 'host' ? `${f.target.ip}:${f.target.port}` : ''])
const refusal = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (e: unknown) => e,
  )

describe('masscan JSON', () => {
  it('masscan_many_vuln.json (masscan 1.3, DefectDojo): one asset per IP with its open ports, no findings for open ports', async () => {
    const scan = await parseText(masscanJsonParser, json('masscan_many_vuln.json'), 100)
    expect(scan).toMatchObject({ format: 'masscan_json', tool: { name: 'masscan' }, targets: ['172.29.0.3'], findings: [] })
    expect(scan.startedAt).toBe(1785522037000)
    expect(scan.assets).toEqual([
      {
        type: 'ip',
        value: '172.29.0.3',
        ports: [80, 3000, 8080, 8443].map((port) => ({ port, protocol: 'tcp' })),
        raw: { ttl: [64] },
      },
    ])
    expect(scan.statistics).toMatchObject({ records: 4, hosts: 1, openPorts: 4, findings: 0 })
  })

  it('masscan 1.0.4 (no brackets, "{finished: 1}"): banners kept on the asset, Heartbleed a finding with its CVE', async () => {
    const scan = await parseText(masscanJsonParser, json('synthetic-1.0.4-finished.json'), 37)
    expect(summary(scan)).toEqual([
      ['masscan:heartbleed', 'high', '192.0.2.10:443'],
      ['masscan:tls-heartbeat', 'info', '192.0.2.10:443'],
    ])
    expect(scan.findings[0]).toMatchObject({ cve: ['CVE-2014-0160'], evidence: 'SSL[heartbeat] SSL[HEARTBLEED]' })
    expect(scan.assets.map((a) => [a.value, a.ports])).toEqual([
      ['192.0.2.10', [{ port: 443, protocol: 'tcp', service: 'ssl' }]],
      ['192.0.2.11', [{ port: 22, protocol: 'tcp', service: 'ssh' }]],
    ])
    expect(scan.assets[1]?.raw?.banners).toEqual([{ port: '22/tcp', service: 'ssh', banner: 'SSH-2.0-OpenSSH_6.6.1p1 Ubuntu-2ubuntu2' }])
    expect(scan.statistics).toMatchObject({ finishedMarker: 1, banners: 3 })
  })

  it('masscan 1.0.5 (a trailing comma before "]"): escaped banners decoded, a UDP port', async () => {
    const scan = await parseText(masscanJsonParser, json('synthetic-1.0.5-trailing-comma.json'))
    expect(scan.findings).toEqual([])
    expect(scan.assets[0]?.raw?.banners).toContainEqual({
      port: '80/tcp',
      service: 'http',
      banner: 'HTTP/1.1 200 OK\r\nServer: nginx/1.10.3',
    })
    expect(scan.assets[1]?.ports).toEqual([{ port: 53, protocol: 'udp' }])
    expect([scan.startedAt, scan.finishedAt]).toEqual([1530850000000, 1530850002000])
  })

  it('masscan 1.3 -oD (ndjson): SSL 3.0 and POODLE from one vuln banner', async () => {
    const scan = await parseText(masscanJsonParser, json('synthetic-1.3-ndjson.json'))
    expect(summary(scan)).toEqual([
      ['masscan:poodle', 'low', '192.0.2.20:443'],
      ['masscan:sslv3', 'medium', '192.0.2.20:443'],
    ])
    expect(scan.findings[0]?.cve).toEqual(['CVE-2014-3566'])
    expect(scan.assets.map((a) => a.value)).toEqual(['192.0.2.20', '192.0.2.21'])
  })

  it('an empty file (DefectDojo masscan_no_vuln.json) and records it cannot read, noted by line', async () => {
    await expect(parseText(masscanJsonParser, json('empty-masscan_no_vuln.json'))).resolves.toMatchObject({ findings: [], assets: [] })
    const scan = await parseText(
      masscanJsonParser,
      '[\n{ "ip": "192.0.2.1", "timestamp": "1", "ports": [] },\n{ "ip": "nope", "ports": [ {"port": 1} ] },\n{ "ip": "192.0.2.3", "ports": [ {"proto": "tcp"} ] },\n{ "ip": "192.0.2.2", "ports": [ {"port": 8, "proto": "tcp", "status": "closed"} ] }\n]',
    )
    expect(scan.notes).toEqual([
      { level: 'skipped', where: 'line 2', message: 'the record has no ports' },
      { level: 'skipped', where: 'line 3', message: 'the record has no IP address' },
      { level: 'skipped', where: 'line 4', message: 'a port without a number' },
    ])
  })
})

describe('masscan JSON refuses', () => {
  it('a truncated file, a broken record, nesting and a record longer than the limits, with the line', async () => {
    const cut = json('masscan_many_vuln.json').slice(0, 300)
    await expect(refusal(parseText(masscanJsonParser, cut))).resolves.toMatchObject({
      message: 'masscan JSON, line 4: the file ends in the middle of a record (is it truncated?)',
    })
    await expect(refusal(parseText(masscanJsonParser, '[\n{ "ip": "192.0.2.1" "ports": [] }\n]'))).resolves.toMatchObject({
      formatLabel: 'masscan JSON',
      where: 'line 2',
      reason: expect.stringMatching(/^not valid JSON/),
    })
    const deep = `[\n{ "ip": "192.0.2.1", "x": ${'['.repeat(PARSE_LIMITS.maxDepth + 1)}${']'.repeat(PARSE_LIMITS.maxDepth + 1)} }]`
    await expect(refusal(parseText(masscanJsonParser, deep))).resolves.toMatchObject({
      message: `masscan JSON, line 2: nested deeper than ${PARSE_LIMITS.maxDepth} levels`,
    })
    const huge = `[\n{ "ip": "192.0.2.1", "x": [${'1,'.repeat(PARSE_LIMITS.maxLineChars / 2 + 10)}1] }]`
    await expect(refusal(parseText(masscanJsonParser, huge, 65_536))).resolves.toMatchObject({
      message: `masscan JSON, line 2: a record longer than ${PARSE_LIMITS.maxLineChars} characters`,
    })
    await expect(refusal(parseText(masscanJsonParser, 'ip,port\n192.0.2.1,80'))).resolves.toMatchObject({ where: 'line 1' })
  })

  it('cuts a huge banner to the evidence bound', async () => {
    const banner = 'SSL[HEARTBLEED] '.repeat(PARSE_LIMITS.maxFieldChars)
    const scan = await parseText(
      masscanJsonParser,
      `[{"ip": "192.0.2.1", "timestamp": "1", "ports": [ {"port": 443, "proto": "tcp", "service": {"name": "vuln", "banner": "${banner}"} } ] }]`,
    )
    expect(scan.findings[0]?.evidence?.length).toBeLessThanOrEqual(PARSE_LIMITS.maxEvidenceChars)
  })
})

describe('masscan XML', () => {
  it('banners (masscan 1.3 -oX --banners): ports with their protocol, a repeated banner once, Heartbleed and Ticketbleed', async () => {
    const scan = await parseText(masscanXmlParser, xml('synthetic-1.3-banners.xml'), 200)
    expect(scan).toMatchObject({ format: 'masscan_xml', tool: { name: 'masscan', version: '1.0-BETA' } })
    expect([scan.startedAt, scan.finishedAt]).toEqual([1709632800000, 1709632830000])
    expect(summary(scan)).toEqual([
      ['masscan:heartbleed', 'high', '192.0.2.10:443'],
      ['masscan:tls-heartbeat', 'info', '192.0.2.10:443'],
      ['masscan:ticketbleed', 'high', '2001:db8::5:443'],
    ])
    expect(scan.assets.map((a) => [a.value, a.ports?.map((p) => `${p.port}/${p.protocol}/${p.service ?? ''}`)])).toEqual([
      ['192.0.2.10', ['22/tcp/ssh', '443/tcp/ssl']],
      ['192.0.2.11', ['80/tcp/http']],
      ['2001:db8::5', ['443/tcp/']],
    ])
    expect(scan.assets[0]?.raw?.banners).toHaveLength(3)
    expect(scan.statistics).toMatchObject({ records: 11, hosts: 3, openPorts: 4, banners: 7, findings: 3 })
  })

  it('an empty scan, and the one-port report of masscan 1.0', async () => {
    await expect(parseText(masscanXmlParser, xml('empty-1.3.xml'))).resolves.toMatchObject({
      findings: [],
      assets: [],
      statistics: { hosts: 0 },
    })
    const scan = await parseText(masscanXmlParser, fixtureText('lookalike', 'masscan.xml'))
    expect(scan.assets).toEqual([{ type: 'ip', value: '192.0.2.10', ports: [{ port: 443, protocol: 'tcp' }], raw: { ttl: [54] } }])
  })

  it("refuses Nmap's XML, entity expansion and a truncated file with the format and the line", async () => {
    await expect(refusal(parseText(masscanXmlParser, fixtureText('nmap_xml', 'nmap_0port.xml')))).resolves.toMatchObject({
      formatLabel: 'masscan XML',
      reason: `the root element is <nmaprun>, not masscan's <nmaprun scanner="masscan">`,
    })
    await expect(refusal(parseText(masscanXmlParser, fixtureText('hostile', 'billion-laughs.xml')))).resolves.toMatchObject({
      message: expect.stringMatching(/^masscan XML, line 13: the DOCTYPE declares entities/),
    })
    const cut = xml('synthetic-1.3-banners.xml').slice(0, 700)
    await expect(refusal(parseText(masscanXmlParser, cut))).resolves.toMatchObject({
      formatLabel: 'masscan XML',
      where: `line ${cut.split('\n').length}`,
    })
  })
})

describe('masscan in the network service', () => {
  it('each finding has its own fingerprint, and the same file again gives the same result', async () => {
    for (const [parser, text] of [
      [masscanJsonParser, json('synthetic-1.0.4-finished.json')],
      [masscanJsonParser, json('synthetic-1.3-ndjson.json')],
      [masscanXmlParser, xml('synthetic-1.3-banners.xml')],
    ] as const) {
      const first = await parseText(parser, text)
      const again = await parseText(parser, text, 333)
      expect(again).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('network', f)))
      expect(new Set(ids).size).toBe(first.findings.length)
    }
  })

  it('is offered on the network page and recognised by content: not Nmap, not naabu', () => {
    expect(formatsForService('network').map((p) => p.format)).toEqual(expect.arrayContaining(['masscan_json', 'masscan_xml']))
    for (const name of [
      'masscan_many_vuln.json',
      'masscan_one_vuln.json',
      'synthetic-1.0.4-finished.json',
      'synthetic-1.0.5-trailing-comma.json',
    ])
      expect(detectFormat(json(name))?.format, name).toBe('masscan_json')
    expect(detectFormat(json('synthetic-1.3-ndjson.json'))?.format).toBe('masscan_json')
    expect(detectFormat(xml('synthetic-1.3-banners.xml'))?.format).toBe('masscan_xml')
    expect(detectFormat(xml('empty-1.3.xml'))?.format).toBe('masscan_xml')
    expect(detectFormat(fixtureText('nmap_xml', 'nmap_0port.xml'))?.format).toBe('nmap_xml')
    expect(detectFormat(fixtureText('naabu_jsonl', 'naabu_many_vuln.json'))?.format).toBe('naabu_jsonl')
  })
})
