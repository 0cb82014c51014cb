import { describe, expect, it } from 'vitest'
import { parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { httpxJsonlParser } from './httpx-jsonl.ts'
import { naabuJsonlParser } from './naabu-jsonl.ts'

describe('httpxJsonlParser', () => {
  const parse = (name: string) => parseFixture(httpxJsonlParser, 'httpx_jsonl', name)

  it('builds the inventory and raises only the exposures the records show', async () => {
    const scan = await parse('httpx_many_vuln.json')
    expect(scan.statistics).toMatchObject({ records: 5, failed: 0, findings: 2 })
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual([
      ['httpx:exposed-git', 'high', { kind: 'url', url: 'http://172.29.0.2/.git/config', method: 'GET' }],
      ['httpx:admin-panel', 'low', { kind: 'url', url: 'http://172.29.0.2/admin/', method: 'GET' }],
    ])
    expect(scan.findings[1]?.evidence).toBe('title: generic-app admin')
    expect(scan.assets).toEqual([
      {
        type: 'ip',
        value: '172.29.0.2',
        ports: [{ port: 80, protocol: 'tcp', service: 'http', product: 'nginx/1.31.3' }],
        technologies: ['Nginx:1.31.3'],
      },
    ])
  })

  it('reads certificates, subdomains and directory listings; failed probes are counted', async () => {
    const scan = await parse('synthetic-tls.jsonl')
    expect(scan.statistics).toMatchObject({ records: 3, failed: 1 })
    expect(severityCounts(scan)).toEqual({ medium: 2, low: 1 })
    expect(scan.findings.map((f) => f.ruleId)).toEqual(['httpx:directory-listing', 'httpx:expired-certificate', 'httpx:admin-panel'])
    expect(scan.assets.map((a) => [a.type, a.value, a.parent])).toEqual([
      ['domain', 'example.org', undefined],
      ['subdomain', 'files.example.org', 'example.org'],
      ['ip', '93.184.215.30', undefined],
      ['certificate', 'files.example.org', 'files.example.org'],
      ['subdomain', 'ops.example.org', 'example.org'],
      ['ip', '93.184.215.31', undefined],
      ['certificate', '*.example.org', 'ops.example.org'],
    ])
    expect(scan.assets[3]).toMatchObject({ notAfter: Date.parse('2025-04-01T00:00:00Z'), issuer: 'R11' })
    expect(scan.assets[4]?.ports).toEqual([{ port: 8443, protocol: 'tcp', service: 'https', product: undefined }])
    expect(scan.startedAt).toBe(Date.parse('2025-05-02T10:00:00Z'))
  })

  it('skips lines without a valid url and names the line of broken JSON', async () => {
    const scan = await parseText(httpxJsonlParser, '{"url": "not a url"}\n[1]\n')
    expect(scan.notes.map((n) => `${n.where}: ${n.message}`)).toEqual([
      'line 1: the line has no valid url',
      'line 2: the line is not an object',
    ])
    await expect(parseText(httpxJsonlParser, '{"url": "https://a"}\n{"url": "https://b",\n')).rejects.toThrow(
      /^httpx JSONL, line 2: not valid JSON/,
    )
  })
})

describe('naabuJsonlParser', () => {
  const parse = (name: string) => parseFixture(naabuJsonlParser, 'naabu_jsonl', name)

  it('merges repeated ports and raises no finding for ordinary web ports', async () => {
    const scan = await parse('naabu_many_vuln.json')
    expect(scan.statistics).toMatchObject({ records: 8, openPorts: 4, findings: 0 })
    expect(scan.assets).toHaveLength(1)
    expect(scan.assets[0]?.ports?.map((p) => p.port)).toEqual([3000, 8443, 80, 8080])
  })

  it('raises risky services once, on the host with its IP', async () => {
    const scan = await parse('synthetic-risky.jsonl')
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual([
      ['exposed-postgresql', 'medium', { kind: 'host', host: 'db.example.org', ip: '203.0.113.7', port: 5432, protocol: 'tcp' }],
      ['exposed-redis', 'high', { kind: 'host', host: 'db.example.org', ip: '203.0.113.7', port: 6379, protocol: 'tcp' }],
    ])
    expect(scan.assets.map((a) => [a.type, a.value, a.ports?.length])).toEqual([
      ['ip', '203.0.113.7', 3],
      ['domain', 'example.org', undefined],
      ['subdomain', 'db.example.org', 3],
    ])
    expect(scan.targets).toEqual(['db.example.org'])
  })

  it('skips lines without a port and names broken lines', async () => {
    const scan = await parseText(naabuJsonlParser, '{"ip": "1.2.3.4", "port": 70000}\n')
    expect(scan.notes[0]?.where).toBe('line 1')
    await expect(parseText(naabuJsonlParser, '{"ip": "1.2.3.4", "port": 80}\n{"ip": \n')).rejects.toThrow(
      /^naabu JSONL, line 2: not valid JSON/,
    )
  })
})
