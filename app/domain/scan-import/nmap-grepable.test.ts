import { describe, expect, it } from 'vitest'
import { fixtureText, parseText } from '../../../tests/support/scan-fixtures.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { nmapGrepableParser, portEntries } from './nmap-grepable.ts'
import { PARSE_LIMITS } from './parsed-scan.ts'

const text = (name: string) => fixtureText('nmap_grepable', name)
const parse = (name: string, chunk?: number) => parseText(nmapGrepableParser, text(name), chunk)
const ports = (scan: Awaited<ReturnType<typeof parse>>) =>
  scan.assets
    .filter((a) => a.type === 'ip')
    .map((a) => [a.value, a.ports?.map((p) => `${p.port}/${p.protocol} ${p.service ?? ''} ${p.product ?? ''}`.trim())])
const refusal = (run: Promise<unknown>) =>
  run.then(
    () => null,
    (e: unknown) => e,
  )

describe('parseNmapGrepable', () => {
  it('Nmap 7.93 -sV (run on this machine against local servers): open ports with services and versions, a "/" in a service restored', async () => {
    const scan = await parse('nmap-7.93-sV-localhost.gnmap', 50)
    expect(scan).toMatchObject({ format: 'nmap_grepable', tool: { name: 'nmap', version: '7.93' }, targets: ['127.0.0.1'], findings: [] })
    expect(scan.startedAt).toBe(Date.UTC(2026, 11, 2, 17, 14, 10))
    expect(scan.finishedAt).toBe(Date.UTC(2026, 11, 2, 17, 14, 54))
    expect(ports(scan)).toEqual([
      [
        '127.0.0.1',
        [
          '18080/tcp http SimpleHTTPServer 0.6 (Python 3.11.7)',
          '18443/tcp ssl/http OpenSSL s_server -www httpd (command line: s_server -accept 127.0.0.1:18443 -cert c.pem -key k.pem -www -quiet)',
        ],
      ],
    ])
    expect(scan.assets[1]).toEqual({ type: 'host', value: 'localhost', parent: '127.0.0.1' })
    expect(scan.statistics).toMatchObject({ hostsUp: 1, openPorts: 2, portsNotOpen: 2 })
  })

  it('Nmap 7.93 ping scan, OS run and "Ignored State"', async () => {
    expect((await parse('nmap-7.93-ping-localhost.gnmap')).assets.map((a) => a.value)).toEqual(['127.0.0.1', 'localhost', '127.0.0.2'])
    expect(ports(await parse('nmap-7.93-os-localhost.gnmap'))).toEqual([['127.0.0.1', ['18080/tcp unknown']]])
    const ignored = await parse('nmap-7.93-ignored-localhost.gnmap')
    expect(ignored.statistics.ignoredPorts).toBe(32)
    expect(ignored.assets[0]?.raw).toMatchObject({ ignoredState: 'closed (32)' })
  })

  it('Nmap 5.21 with OS and UDP: versions holding ", " and ":" stay whole, open|filtered and down hosts left out', async () => {
    const scan = await parse('synthetic-nmap-5.21-os.gnmap')
    expect(ports(scan)).toEqual([
      ['192.0.2.1', ['22/tcp ssh OpenSSH 5.3 (protocol 2.0)', '80/tcp http Apache httpd 2.2.15 ((CentOS))']],
      [
        '192.0.2.3',
        [
          '53/udp domain ISC BIND 9.7.3',
          '445/tcp netbios-ssn Samba smbd 3.X - 4.X (workgroup: WORKGROUP)',
          '8080/tcp http-proxy Squid http proxy 3.1.10',
        ],
      ],
    ])
    expect(scan.assets[0]?.raw).toMatchObject({ os: { name: 'Linux 2.6.18 - 2.6.32' }, hostnames: ['gw.example.org'] })
    expect(scan.targets).toEqual(['192.0.2.0/29'])
    expect(scan.statistics).toMatchObject({ hostsUp: 2, hostsNotUp: 1, portsNotOpen: 2, ignoredPorts: 1993 })
    expect(portEntries('80/open/tcp//http//a, b, c/, 443/open/tcp//https///').entries.map((e) => e[6])).toEqual(['a, b, c', ''])
  })

  it("masscan's -oG: one line per port, the banner lines kept on the asset", async () => {
    const scan = await parse('synthetic-masscan-1.3.2.gnmap')
    expect(scan.tool).toEqual({ name: 'masscan', version: '1.3.2' })
    expect(ports(scan)).toEqual([
      ['192.0.2.10', ['22/tcp ssh', '443/tcp https']],
      ['192.0.2.11', ['80/tcp http']],
    ])
    expect(scan.assets[0]?.raw?.banners).toEqual([{ port: '22', service: 'ssh', banner: 'SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6' }])
  })

  it('an empty scan; a line it cannot read and a Ports field it cannot finish are noted by line', async () => {
    await expect(parse('empty-nmap-7.93.gnmap')).resolves.toMatchObject({ assets: [], findings: [], statistics: { hostsUp: 0 } })
    const scan = await parseText(
      nmapGrepableParser,
      '# Nmap 7.94 scan initiated Mon Jan  1 00:00:00 2024 as: nmap -oG - 192.0.2.1\nnoise\nHost: 192.0.2.1 ()\tPorts: 22/open/tcp//ssh///, junk\n',
    )
    expect(scan.notes).toEqual([
      { level: 'skipped', where: 'line 2', message: 'a line that is neither a comment nor a "Host:" line' },
      { level: 'warning', where: 'line 3', message: 'the Ports field could not be read after column 22' },
    ])
    expect(ports(scan)).toEqual([['192.0.2.1', ['22/tcp ssh']]])
  })

  it('refuses a file without the header and a line over the limit, with the format and line', async () => {
    await expect(refusal(parseText(nmapGrepableParser, 'Host: 192.0.2.1 ()\tStatus: Up\n'))).resolves.toMatchObject({
      message: 'Nmap grepable, line 1: the file does not start with "# Nmap … scan initiated" or "# Masscan … scan initiated"',
    })
    const long = `# Nmap 7.94 scan initiated x as: nmap 192.0.2.1\nHost: 192.0.2.1 ()\tPorts: ${'1/open/tcp////, '.repeat(PARSE_LIMITS.maxLineChars / 8)}\n`
    await expect(refusal(parseText(nmapGrepableParser, long, 65_536))).resolves.toMatchObject({
      message: `Nmap grepable, line 2: longer than ${PARSE_LIMITS.maxLineChars} characters`,
    })
  })

  it('the same file again gives the same result', async () => {
    for (const name of ['nmap-7.93-sV-localhost.gnmap', 'synthetic-nmap-5.21-os.gnmap', 'synthetic-masscan-1.3.2.gnmap'])
      expect(await parse(name, 7)).toEqual(await parse(name))
  })

  it('is offered on the network page and recognised by content, not Nmap normal output', () => {
    expect(formatsForService('network').map((p) => p.format)).toContain('nmap_grepable')
    for (const name of [
      'nmap-7.93-sV-localhost.gnmap',
      'nmap-7.93-ping-localhost.gnmap',
      'nmap-7.93-os-localhost.gnmap',
      'nmap-7.93-ignored-localhost.gnmap',
      'synthetic-nmap-5.21-os.gnmap',
      'synthetic-masscan-1.3.2.gnmap',
      'empty-nmap-7.93.gnmap',
    ])
      expect(detectFormat(text(name))?.format, name).toBe('nmap_grepable')
    expect(detectFormat(fixtureText('not-scans', 'nmap-normal-output.nmap'))).toBeNull()
  })
})
