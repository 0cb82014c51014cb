import { describe, expect, it } from 'vitest'
import { fixtureText, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { BURP_MAX_RUN_CHARS, burpXmlParser, fromJavaDate, insertionPoint, parseBurpXml } from './burp-xml.ts'
import { detectFormat, formatsForService } from './formats.ts'
import { parsedFingerprint } from './observed.ts'
import { PARSE_LIMITS } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'

const text = (name: string) => fixtureText('burp_xml', name)
const parse = (name: string, chunk?: number) => parseText(burpXmlParser, text(name), chunk)
const FIXTURES = [
  'issue4399.xml',
  'one_finding.xml',
  'one_finding_with_blank_response.xml',
  'one_finding_with_cwe.xml',
  'seven_findings.xml',
  'synthetic-burp2024.xml',
  'empty.xml',
]

describe('parseBurpXml on public exports', () => {
  it('one_finding.xml (Burp 1.6.05): three SQL injections at their insertion points, requests and responses decoded', async () => {
    const scan = await parse('one_finding.xml', 700)
    expect(scan.tool).toEqual({ name: 'Burp Suite', version: '1.6.05' })
    // "Sat Sep 13 22:39:44 CEST 2014": CEST is UTC+2.
    expect(scan.finishedAt).toBe(Date.UTC(2014, 8, 13, 20, 39, 44))
    expect(scan.findings.map((f) => [f.ruleId, f.severity, f.target])).toEqual([
      ['burp:1049088', 'high', { kind: 'url', url: 'http://bwa/bodgeit/basket.jsp', method: 'POST', parameter: 'b_id cookie' }],
      ['burp:1049088', 'high', { kind: 'url', url: 'http://bwa/bodgeit/login.jsp', method: 'POST', parameter: 'password' }],
      ['burp:1049088', 'high', { kind: 'url', url: 'http://bwa/bodgeit/login.jsp', method: 'POST', parameter: 'username' }],
    ])
    const [basket, password] = scan.findings
    expect(basket?.request).toMatch(/^POST \/bodgeit\/basket\.jsp HTTP\/1\.1\nHost: bwa\n/)
    expect(basket?.response).toMatch(/^HTTP\/1\.1 500 Internal Server Error\n/)
    expect(basket?.description).toMatch(/^The b_id cookie appears to be vulnerable to SQL injection attacks\./)
    expect(basket?.remediation).toMatch(/^The application should handle errors gracefully/)
    expect(basket?.raw).toMatchObject({
      issueType: '1049088',
      serialNumber: '7121655797013284864',
      confidence: 'Firm',
      ip: '192.168.187.137',
    })
    expect(password).toMatchObject({ tags: ['tentative'], raw: { requestResponses: 2, confidence: 'Tentative' } })
    expect(scan.assets).toEqual([
      {
        type: 'host',
        value: 'bwa',
        ports: [{ port: 80, protocol: 'tcp', service: 'http' }],
        raw: { site: 'http://bwa', ip: '192.168.187.137' },
      },
    ])
    expect(scan.statistics).toMatchObject({ issues: 3, requestResponses: 5, findings: 3 })
  })

  it('seven_findings.xml (Burp 1.6.05): severities, Information read as info', async () => {
    const scan = await parse('seven_findings.xml')
    expect(severityCounts(scan)).toEqual({ high: 5, low: 2, info: 9 })
    expect(scan.targets).toEqual(['http://bwa'])
  })

  it('one_finding_with_cwe.xml (Burp 2020.12): CWEs from the classifications, an empty response left out', async () => {
    const scan = await parse('one_finding_with_cwe.xml')
    expect(scan.finishedAt).toBe(Date.UTC(2021, 0, 27, 15, 43, 35))
    const [finding] = scan.findings
    expect(finding).toMatchObject({
      ruleId: 'burp:7340288',
      title: 'Cacheable HTTPS response',
      severity: 'info',
      cwe: ['CWE-524', 'CWE-525'],
      target: { kind: 'url', url: 'https://example.com/test/v4/public/users/fake', method: 'GET' },
      references: ['https://cwe.mitre.org/data/definitions/524.html', 'https://cwe.mitre.org/data/definitions/525.html'],
    })
    expect(finding?.remediation).toMatch(/- Cache-control: no-store\n- Pragma: no-cache$/)
    expect(finding?.response).toBeUndefined()
    expect(finding?.request).toMatch(/^GET \/test\/v4\/public\/users\/fake HTTP\/1\.1\n/)
    expect(scan.assets[0]?.ports).toEqual([{ port: 443, protocol: 'tcp', service: 'https' }])
  })

  it('issue4399.xml (Burp 2021.4.2): CVEs of the Vulners extension, detail items as evidence, Collaborator interactions', async () => {
    const scan = await parse('issue4399.xml', 8192)
    expect(scan.tool.version).toBe('2021.4.2')
    expect(scan.findings).toHaveLength(27)
    expect(severityCounts(scan)).toEqual({ high: 8, medium: 1, low: 8, info: 10 })
    // Issues of extensions share one type: their names tell them apart.
    const vulners = scan.findings.find((f) => f.title === '[Vulners] Vulnerable Software detected')
    expect(vulners?.ruleId).toBe('burp:extension:[Vulners] Vulnerable Software detected')
    expect(vulners?.cve).toEqual(expect.arrayContaining(['CVE-2018-19396', 'CVE-2018-19395']))
    expect(scan.findings.find((f) => f.title === 'Email addresses disclosed')?.evidence).toBe('wvs@acunetix.com')
    const dns = scan.findings.find((f) => f.title === 'External service interaction (DNS)')
    expect(dns?.raw.collaborator).toEqual([expect.objectContaining({ interactionType: 'DNS' })])
    expect(scan.statistics).toMatchObject({ collaboratorEvents: 3 })
    for (const finding of scan.findings) {
      expect(finding.request?.length ?? 0).toBeLessThanOrEqual(PARSE_LIMITS.maxEvidenceChars)
      expect(finding.response?.length ?? 0).toBeLessThanOrEqual(PARSE_LIMITS.maxEvidenceChars)
    }
  })
})

describe('parseBurpXml on the other shapes (synthetic)', () => {
  it('Burp 2024 without a DOCTYPE: a JSON parameter, a plain-text response, a false positive skipped with the reason', async () => {
    const scan = await parse('synthetic-burp2024.xml', 100)
    expect(scan.finishedAt).toBe(Date.UTC(2024, 11, 2, 9, 0, 0))
    expect(scan.findings.map((f) => [f.title, f.target])).toEqual([
      ['SQL injection', { kind: 'url', url: 'https://shop.example.test:8443/api/login', method: 'POST', parameter: 'password' }],
      [
        'External service interaction (HTTP)',
        { kind: 'url', url: 'https://shop.example.test:8443/fetch', method: 'GET', parameter: 'url' },
      ],
    ])
    expect(scan.findings[0]?.request).toContain(`{"user":"admin","password":"x' OR 1=1--"}`)
    expect(scan.findings[0]?.response).toBe('HTTP/2 500 Internal Server Error\nContent-Type: text/plain\n\nsyntax error at or near "OR"')
    expect(scan.notes).toEqual([
      { level: 'skipped', where: 'line 54', message: 'Frameable response (potential Clickjacking): marked a false positive in Burp' },
    ])
    expect(scan.assets[0]).toMatchObject({ value: 'shop.example.test', ports: [{ port: 8443, protocol: 'tcp', service: 'https' }] })
  })

  it('an export without issues', async () => {
    const scan = await parse('empty.xml')
    expect(scan).toMatchObject({ findings: [], assets: [], targets: [], tool: { version: '2024.1.1.4' } })
    expect(scan.finishedAt).toBe(Date.UTC(2024, 11, 2, 10, 0, 0))
  })

  it('reads insertion points and Java dates as Burp writes them', () => {
    expect(insertionPoint('/a [q parameter]')).toBe('q')
    expect(insertionPoint('/a [id XML parameter]')).toBe('id')
    expect(insertionPoint('/a [User-Agent HTTP header]')).toBe('User-Agent HTTP header')
    expect(insertionPoint('/a')).toBeUndefined()
    expect(fromJavaDate('Fri Apr 30 11:45:49 IST 2021')).toBe(Date.UTC(2021, 3, 30, 6, 15, 49))
    expect(fromJavaDate('Fri Apr 30 11:45:49 XYZ 2021')).toBeNull()
  })
})

describe('Burp findings in the DAST service', () => {
  it('each issue has its own fingerprint, and importing the file again gives the same ones', async () => {
    for (const name of ['issue4399.xml', 'seven_findings.xml', 'one_finding.xml', 'synthetic-burp2024.xml']) {
      const first = await parse(name)
      const again = await parse(name, 1234)
      expect(again).toEqual(first)
      const ids = await Promise.all(first.findings.map((f) => parsedFingerprint('dast', f)))
      expect(new Set(ids).size, name).toBe(first.findings.length)
    }
  })

  it('is offered on the DAST page and recognised by content alone', () => {
    expect(formatsForService('dast').map((p) => p.format)).toContain('burp_xml')
    for (const name of FIXTURES) expect(detectFormat(text(name))?.format, name).toBe('burp_xml')
    expect(detectFormat('<?xml version="1.0"?>\n<issues><issue><title>A GitHub issue list</title></issue></issues>')).toBeNull()
    expect(detectFormat(fixtureText('zap_xml', '5_zap_sample_one.xml'))?.format).toBe('zap_xml')
  })
})

describe('parseBurpXml refuses', () => {
  const refusal = (xml: string) =>
    parseBurpXml(textChunks(xml, 512)).then(
      () => null,
      (e: unknown) => e,
    )

  it('entity expansion in the DOCTYPE, although Burp writes a DOCTYPE of its own', async () => {
    const burpDoctype = text('one_finding.xml')
    expect((await parseBurpXml(textChunks(burpDoctype))).findings).toHaveLength(3)
    const laughs = burpDoctype.replace('<!ELEMENT issues (issue*)>', '<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">')
    await expect(refusal(laughs)).resolves.toMatchObject({
      formatLabel: 'Burp Suite XML',
      reason: expect.stringMatching(/declares entities/),
    })
  })

  it('nesting deeper than the limit and a huge base64 run, naming the line', async () => {
    const depth = PARSE_LIMITS.maxDepth
    const deep = `<issues burpVersion="1">\n<issue>\n${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</issue></issues>`
    await expect(refusal(deep)).resolves.toMatchObject({ message: `Burp Suite XML, line 3: elements nested deeper than ${depth}` })
    const huge = `<issues burpVersion="1">\n<issue><requestresponse><response base64="true">${'A'.repeat(BURP_MAX_RUN_CHARS + 4)}</response></requestresponse></issue></issues>`
    await expect(refusal(huge)).resolves.toMatchObject({ reason: `more than ${BURP_MAX_RUN_CHARS} characters without markup` })
  })

  it('keeps a 2 MB base64 response, cut to the evidence bound', async () => {
    const body = Buffer.from(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(1_500_000)}`).toString('base64')
    const xml = `<issues burpVersion="2024.1"><issue><serialNumber>1</serialNumber><type>1</type><name>Big</name><host ip="">https://a.example.test</host><path>/</path><location>/</location><severity>Low</severity><confidence>Firm</confidence><requestresponse><request method="GET" base64="false">GET / HTTP/1.1</request><response base64="true">${body}</response></requestresponse></issue></issues>`
    const [finding] = (await parseBurpXml(textChunks(xml))).findings
    expect(finding?.response).toHaveLength(PARSE_LIMITS.maxEvidenceChars)
    expect(finding?.response?.startsWith('HTTP/1.1 200 OK\n\nxxx')).toBe(true)
  })

  it('another XML and a truncated export, with the format and the line', async () => {
    await expect(refusal(fixtureText('nmap_xml', 'nmap_0port.xml'))).resolves.toMatchObject({
      formatLabel: 'Burp Suite XML',
      where: 'line 4',
    })
    const cut = text('seven_findings.xml').slice(0, 30_000)
    await expect(refusal(cut)).resolves.toMatchObject({ formatLabel: 'Burp Suite XML', where: `line ${cut.split('\n').length}` })
  })
})
