import { describe, expect, it } from 'vitest'
import { parseFixture, parseText, severityCounts } from '../../../tests/support/scan-fixtures.ts'
import { sarifParser } from './sarif.ts'

const parse = (name: string) => parseFixture(sarifParser, 'sarif', name)

describe('sarifParser', () => {
  it('reads a DAST log: security-severity first, rules by id or index, even after the results', async () => {
    const scan = await parse('synthetic-dast.sarif')
    expect(scan.tool).toEqual({ name: 'ZAP', version: '2.16.1' })
    expect(scan.findings).toHaveLength(2)
    expect(scan.findings[0]).toMatchObject({
      ruleId: '40012',
      title: 'Cross Site Scripting (Reflected)',
      severity: 'high',
      target: { kind: 'url', url: 'https://shop.example.org/search?q=x' },
      cwe: ['CWE-79'],
      description: 'Cross-site Scripting (XSS) is an attack technique.',
      remediation: 'Validate all input.',
      references: ['https://owasp.org/www-community/attacks/xss/'],
      evidence: 'Reflected XSS in the q parameter',
      raw: { securitySeverity: 7.5, level: 'error' },
    })
    expect(scan.findings[1]).toMatchObject({ ruleId: '10038', severity: 'low', cwe: ['CWE-693'] })
    expect(scan.notes).toEqual([{ level: 'skipped', where: '$.runs[0].results[2]', message: 'rule 10202: the result has no location' }])
  })

  it('reads the specification examples: logical locations and message strings', async () => {
    expect((await parse('appendix_k1.sarif')).findings).toEqual([])
    const k3 = await parse('appendix_k3.sarif')
    expect(k3.findings[0]).toMatchObject({ ruleId: 'B6412', severity: 'medium', target: { kind: 'url', url: 'Example.Worker.DoWork' } })
    const k4 = await parse('appendix_k4.sarif')
    expect(k4.findings[0]).toMatchObject({
      ruleId: 'C2001',
      severity: 'high',
      target: { kind: 'url', url: 'collections/list.h', parameter: 'line 15' },
    })
    expect(k4.findings[0]?.evidence).toMatch(/ptr/)
  })

  it('reads other tools', async () => {
    const dockle = await parse('dockle_0_3_15.sarif')
    expect(dockle.findings.length + dockle.notes.length).toBe(4)
    const njs = await parse('njsscan.sarif')
    expect(severityCounts(njs)).toEqual({ high: 1, medium: 1 })
    expect(njs.tool).toEqual({ name: 'nodejsscan', version: '0.2.3' })
    expect((await parse('no_runs.sarif')).findings).toEqual([])
  })

  it('refuses JSON that is not SARIF and names the line of a broken log', async () => {
    await expect(parseText(sarifParser, '{"name": "x"}')).rejects.toThrow('SARIF, $: no SARIF log')
    await expect(parseText(sarifParser, '{"version": "2.1.0", "runs": [{"results": [{"ruleId": "a"}\n{}]}]}')).rejects.toThrow(
      /^SARIF, line 2 \(after \$\.runs\[0\]\.results\[0\]\): not valid JSON/,
    )
  })
})
