import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { findingFingerprint } from '../fingerprints.ts'
import { nmapXmlParser, parseNmapXml, targetsFromArgs } from './nmap-xml.ts'
import { ScanParseError, type ParsedScan } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'

const fixture = (path: string) => readFileSync(new URL(`../../../tests/fixtures/scans/${path}`, import.meta.url), 'utf8')
const parse = (path: string, chunkSize?: number) => parseNmapXml(textChunks(fixture(path), chunkSize))

function severities(scan: ParsedScan): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const finding of scan.findings) counts[finding.severity] = (counts[finding.severity] ?? 0) + 1
  return counts
}

const ipAssets = (scan: ParsedScan) => scan.assets.filter((a) => a.type === 'ip')

describe('parseNmapXml on public fixtures', () => {
  it('nmap_script_vulners.xml: one finding per CVE from vulners, rated by its CVSS', async () => {
    const scan = await parse('nmap_xml/nmap_script_vulners.xml', 500)
    expect(scan.tool).toEqual({ name: 'nmap', version: '7.60' })
    expect(scan.startedAt).toBe(Date.UTC(2020, 1, 17, 9, 7, 25))
    expect(scan.finishedAt).toBe(1581930455000)
    expect(scan.targets).toEqual(['192.168.0.1'])
    expect(ipAssets(scan)).toHaveLength(1)
    expect(scan.assets[0]?.ports).toEqual([{ port: 5022, protocol: 'tcp', service: 'ssh', product: 'OpenSSH', version: '7.4' }])
    expect(scan.findings.map((f) => f.ruleId)).toEqual(['CVE-2018-15919', 'CVE-2017-15906'])
    expect(severities(scan)).toEqual({ medium: 2 })
    expect(scan.findings[0]).toMatchObject({
      title: 'CVE-2018-15919 in OpenSSH 7.4',
      cve: ['CVE-2018-15919'],
      target: { kind: 'host', host: '192.168.0.1', ip: '192.168.0.1', port: 5022, protocol: 'tcp' },
      evidence: 'CVE-2018-15919\t5.0\thttps://vulners.com/cve/CVE-2018-15919',
      raw: { cvssScore: 5 },
    })
  })

  it('issue4406.xml: a full port scan with vulners exploits attached to their CVEs', async () => {
    const scan = await parse('nmap_xml/issue4406.xml')
    expect(scan.tool.version).toBe('7.91')
    expect(scan.targets).toEqual(['10.250.195.71'])
    expect(scan.statistics).toMatchObject({ hostsUp: 1, openPorts: 25, scripts: 7, vulnersEntries: 42 })
    expect(ipAssets(scan)[0]?.ports).toHaveLength(25)
    expect(scan.findings).toHaveLength(8)
    expect(severities(scan)).toEqual({ medium: 7, low: 1 })
    const cve6111 = scan.findings.find((f) => f.ruleId === 'CVE-2019-6111')
    expect(cve6111?.tags).toEqual(['exploit-available'])
    expect(cve6111?.references?.length).toBeGreaterThan(10)
    expect(scan.findings.find((f) => f.ruleId === 'CVE-2018-20685')?.severity).toBe('low')
    // fingerprint-strings and rpcinfo are kept on the host, not dropped.
    const scripts = ipAssets(scan)[0]?.raw?.scripts as { id: string }[]
    expect(scripts.map((s) => s.id).sort()).toEqual([
      'fingerprint-strings',
      'fingerprint-strings',
      'fingerprint-strings',
      'fingerprint-strings',
      'fingerprint-strings',
      'rpcinfo',
    ])
  })

  it('issue12411.xml: targets from the hosts when the command line reads them from a file', async () => {
    const scan = await parse('nmap_xml/issue12411.xml')
    expect(scan.targets).toEqual(['172.217.18.238', '54.239.28.85'])
    expect(scan.statistics).toMatchObject({ hostsUp: 2, openPorts: 4, portsNotOpen: 3 })
    expect(scan.findings).toEqual([])
    expect(scan.assets.filter((a) => a.type === 'host').map((a) => a.value)).toEqual([
      'google.com',
      'par10s10-in-f238.1e100.net',
      'lalala',
      'amazon.com',
    ])
  })

  it('nmap_multiple_port.xml and nmap_0port.xml: open ports and hosts without any', async () => {
    const multiple = await parse('nmap_xml/nmap_multiple_port.xml')
    expect(multiple.targets).toEqual(['joaquinlp.me'])
    expect(ipAssets(multiple).map((a) => [a.value, a.ports?.length])).toEqual([['198.38.82.159', 13]])
    const none = await parse('nmap_xml/nmap_0port.xml')
    expect(ipAssets(none).map((a) => [a.value, a.ports?.length])).toEqual([['127.0.0.1', 0]])
    expect(none.findings).toEqual([])
  })
})

describe('parseNmapXml on NSE scripts (synthetic-scripts.xml)', () => {
  it('reads hosts up only, open ports only, addresses, names and the OS guess', async () => {
    const scan = await parse('nmap_xml/synthetic-scripts.xml', 256)
    expect(scan.targets).toEqual(['192.0.2.10', '192.0.2.11', '2001:db8::5'])
    expect(scan.statistics).toMatchObject({ hostsUp: 2, hostsNotUp: 1, openPorts: 5, portsNotOpen: 1, notVulnerable: 2, certificates: 1 })
    expect(ipAssets(scan).map((a) => a.value)).toEqual(['192.0.2.10', '2001:db8::5'])
    const web = ipAssets(scan)[0]!
    expect(web.ports?.map((p) => p.port)).toEqual([80, 443, 445, 21])
    expect(web.technologies).toEqual(['Apache httpd 2.4.49', 'vsftpd 2.3.4'])
    expect(web.raw).toMatchObject({
      mac: '00:11:22:33:44:55',
      macVendor: 'Example Networks',
      os: { name: 'Linux 5.0 - 5.14', accuracy: 96 },
    })
    expect(ipAssets(scan)[1]?.ports).toEqual([{ port: 161, protocol: 'udp', service: 'snmp', product: 'net-snmp', version: '5.9' }])
  })

  it('turns vulnerable vuln-category scripts into findings, per port and per host, and skips the rest with a reason', async () => {
    const scan = await parse('nmap_xml/synthetic-scripts.xml')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual([
      ['http-vuln-cve2021-41773', 'high', { kind: 'host', host: 'www.example.test', ip: '192.0.2.10', port: 80, protocol: 'tcp' }],
      ['smb-vuln-ms17-010', 'high', { kind: 'host', host: 'www.example.test', ip: '192.0.2.10' }],
    ])
    expect(scan.findings[1]).toMatchObject({
      title: 'Remote Code Execution vulnerability in Microsoft SMBv1 servers (ms17-010)',
      cve: ['CVE-2017-0143'],
      references: [
        'https://technet.microsoft.com/en-us/library/security/ms17-010.aspx',
        'https://cve.mitre.org/cgi-bin/cvename.cgi?name=CVE-2017-0143',
      ],
    })
    expect(scan.notes).toEqual([{ level: 'skipped', where: 'line 64', message: 'ftp-vsftpd-backdoor: the script failed' }])
  })

  it('makes a certificate asset from ssl-cert with its expiry and issuer', async () => {
    const scan = await parse('nmap_xml/synthetic-scripts.xml')
    expect(scan.assets.find((a) => a.type === 'certificate')).toMatchObject({
      value: 'www.example.test',
      parent: '192.0.2.10:443',
      notAfter: Date.UTC(2024, 3, 1, 23, 59, 59),
      issuer: 'CN=Example Issuing CA, O=Example Trust, C=GB',
    })
  })

  it('reads a vuln script that has only text output, with its risk factor', async () => {
    const xml = fixture('nmap_xml/nmap_script_vulners.xml').replace(
      /<script id="vulners"[\s\S]*?<\/script>/,
      '<script id="sslv2-drown" output="&#xa;  VULNERABLE:&#xa;  The SSLv2 protocol is enabled (CVE-2016-0800)&#xa;    Risk factor: Medium"/>',
    )
    const scan = await parseNmapXml(textChunks(xml))
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.cve])).toEqual([['sslv2-drown', 'medium', ['CVE-2016-0800']]])
  })

  it('gives the same fingerprints for two scans of the same target', async () => {
    const prints = async (chunk: number) =>
      Promise.all(
        (await parse('nmap_xml/issue4406.xml', chunk)).findings.map((f) =>
          f.target.kind === 'host'
            ? findingFingerprint('network', {
                ip: f.target.ip ?? f.target.host,
                port: f.target.port,
                protocol: f.target.protocol,
                ruleId: f.ruleId,
              })
            : '',
        ),
      )
    const first = await prints(1000)
    expect(new Set(first).size).toBe(8)
    expect(await prints(65_536)).toEqual(first)
  })
})

describe('nmapXmlParser', () => {
  it('recognises Nmap XML from its content, not masscan, RSS, HTML or another scanner', () => {
    for (const name of ['issue12411', 'issue4406', 'nmap_0port', 'nmap_multiple_port', 'nmap_script_vulners', 'synthetic-scripts']) {
      expect(nmapXmlParser.sniff(fixture(`nmap_xml/${name}.xml`)), name).toBe(true)
    }
    for (const name of [
      'lookalike/masscan.xml',
      'lookalike/rss.xml',
      'lookalike/page.html',
      'nessus_xml/synthetic-minimal.xml',
      'zap_xml/5_zap_sample_one.xml',
      'openvas_xml/one_vuln.xml',
    ]) {
      expect(nmapXmlParser.sniff(fixture(name)), name).toBe(false)
    }
  })

  it('refuses hostile and broken files with the format and the line, never a crash', async () => {
    const failure = async (path: string) =>
      parse(path).then(
        () => null,
        (e: unknown) => e,
      )
    const laughs = await failure('hostile/billion-laughs.xml')
    expect(laughs).toBeInstanceOf(ScanParseError)
    expect((laughs as ScanParseError).message).toMatch(/^Nmap XML, line 13: the DOCTYPE declares entities/)
    expect(await failure('hostile/nmap-truncated.xml')).toMatchObject({ formatLabel: 'Nmap XML', where: 'line 22' })
    expect(await failure('zap_xml/5_zap_sample_one.xml')).toMatchObject({
      formatLabel: 'Nmap XML',
      reason: 'the root element is <OWASPZAPReport>, not <nmaprun>',
    })
  })

  it('finds targets among the command line options', () => {
    expect(targetsFromArgs('nmap -sV -p 22,80 --script vulners -oX out.xml 10.0.0.0/24 example.test')).toEqual([
      '10.0.0.0/24',
      'example.test',
    ])
    expect(targetsFromArgs('nmap -Pn -T4 -iL targets.txt -oX nmap-results.xml')).toEqual([])
  })
})
