import { createRequire } from 'node:module'
import Ajv from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { exportFinding, exportFindings, T0 } from '../../tests/unit/export-fixtures.ts'
import { findingsSarif, findingsSarifText } from './report-sarif.ts'

// The SARIF 2.1.0 JSON schema (OASIS's 2.1.0 release, rtm.5, a draft-04 schema) as Microsoft's
// SARIF matchers ship it. Its language pattern is not valid in Unicode mode, hence unicodeRegExp off.
const require = createRequire(import.meta.url)
const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json')
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false })
addFormats(ajv)
const validate = ajv.compile(schema)

const valid = (log: unknown) => {
  const ok = validate(log)
  return ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
}

describe('findingsSarif', () => {
  it('writes DAST findings that the SARIF 2.1.0 schema accepts, with URLs as artifact locations', () => {
    const findings = exportFindings('dast', 25)
    const log = JSON.parse(
      findingsSarifText({ service: 'dast', company: 'Acme Ltd', exportedAt: T0, findings, informationUri: 'https://bulwark.example' }),
    )
    expect(valid(log)).toEqual([])
    expect(log.version).toBe('2.1.0')
    expect(log.runs).toHaveLength(1)
    const run = log.runs[0]
    expect(run.tool.driver.name).toBe('Bulwark')
    expect(run.results).toHaveLength(25)
    expect(run.results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('https://app.acme.example/api/items/0?q=1')
    expect(run.results[0].partialFingerprints['bulwarkFingerprint/v1']).toBe(findings[0]!.fingerprint)
  })

  it('writes network findings with host:port as a logical location, also valid', () => {
    const log = findingsSarif({ service: 'network', company: 'acme', exportedAt: T0, findings: exportFindings('network', 10) })
    expect(valid(log)).toEqual([])
    expect(log.runs[0]!.results[1]!.locations[0]!.logicalLocations?.[0]).toEqual({
      name: '10.0.0.1:444',
      fullyQualifiedName: '10.0.0.1:444/tcp',
      kind: 'resource',
    })
  })

  it('has one rule per template, indexed by its results, with the worst CVSS as security-severity and a web reference as helpUri', () => {
    const findings = [
      exportFinding('dast', 0, { templateSlug: 'sqli', cvss: { version: '3.1', vector: 'v', score: 6.1 } }),
      exportFinding('dast', 1, { templateSlug: 'sqli', cvss: { version: '3.1', vector: 'v', score: 9.1 } }),
      exportFinding('dast', 2, { templateSlug: undefined, title: 'No template here', cvss: null, severity: 'medium' }),
    ]
    const run = findingsSarif({ service: 'dast', company: 'acme', exportedAt: T0, findings }).runs[0]!
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['sqli', 'finding/no-template-here'])
    expect(run.tool.driver.rules[0]!.properties['security-severity']).toBe('9.1')
    expect(run.tool.driver.rules[1]!.properties['security-severity']).toBe('5.5')
    expect(run.tool.driver.rules[0]!.helpUri).toBe('https://owasp.org/Top10/A03_2021-Injection/')
    expect(run.results.map((r) => r.ruleIndex)).toEqual([0, 0, 1])
    expect(valid({ ...findingsSarif({ service: 'dast', company: 'acme', exportedAt: T0, findings }) })).toEqual([])
  })

  it('maps severities to levels: critical and high are errors, medium warnings, low and informational notes', () => {
    const findings = exportFindings('network', 5)
    const levels = findingsSarif({ service: 'network', company: 'acme', exportedAt: T0, findings }).runs[0]!.results.map((r) => [
      r.properties.severity,
      r.level,
    ])
    expect(levels).toEqual([
      ['critical', 'error'],
      ['high', 'error'],
      ['medium', 'warning'],
      ['low', 'note'],
      ['info', 'note'],
    ])
  })

  it('marks accepted risks and false positives as suppressed', () => {
    const findings = [exportFinding('network', 0, { status: 'risk_accepted' }), exportFinding('network', 1, { status: 'open' })]
    const results = findingsSarif({ service: 'network', company: 'acme', exportedAt: T0, findings }).runs[0]!.results
    expect(results[0]!.suppressions).toEqual([{ kind: 'external', status: 'accepted', justification: 'Risk accepted' }])
    expect(results[1]!.suppressions).toBeUndefined()
  })

  it('describes a rule in the text of its finding as written: angle brackets, code, scripts and long text whole', () => {
    const remediation = [
      'Check the host answers, then block the port:',
      '',
      '```sh',
      'ping -c 1 <host>',
      'iptables -A INPUT -p tcp --dport <port> -j DROP',
      '```',
      '',
      'Replace `<user>` with the account, see [the guide](https://example.org/guide) and <https://example.org/faq>.',
      '',
      '- 東京の <サーバー> を再起動',
      '- Ещё раз <проверить>',
    ].join('\n')
    const description = `The form echoes <script>alert(1)</script> & <b>bold</b> back. ${'Long text. '.repeat(300)}`
    const finding = exportFinding('network', 0, { remediation, description })
    const log = findingsSarif({ service: 'network', company: 'acme', exportedAt: T0, findings: [finding] })
    const rule = log.runs[0]!.tool.driver.rules[0]!
    expect(valid(log)).toEqual([])
    expect(rule.help!.text).toBe(
      [
        'Check the host answers, then block the port:',
        '',
        'ping -c 1 <host>',
        'iptables -A INPUT -p tcp --dport <port> -j DROP',
        '',
        'Replace <user> with the account, see the guide (https://example.org/guide) and https://example.org/faq.',
        '',
        '- 東京の <サーバー> を再起動',
        '- Ещё раз <проверить>',
      ].join('\n'),
    )
    expect(rule.fullDescription!.text).toBe(description.trim())
  })

  it('is refused by the schema when it is broken (the check can fail)', () => {
    const log = findingsSarif({ service: 'dast', company: 'acme', exportedAt: T0, findings: exportFindings('dast', 2) })
    expect(valid({ ...log, version: '2.0.0' })).not.toEqual([])
    const badLevel = structuredClone(log)
    ;(badLevel.runs[0]!.results[0] as { level: string }).level = 'fatal'
    expect(valid(badLevel)).not.toEqual([])
  })
})
