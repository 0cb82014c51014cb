// PingCastle's Active Directory health-check reports (`ad_hc_<domain>.xml`, <HealthcheckData>,
// PingCastle 2.x and 3.x): the domain (FQDN, NetBIOS name, forest, SID), its four scores and the
// engine version, the domain controllers, and the risk rules matched, each with its points,
// category (Anomalies, PrivilegedAccounts, StaleObjects, Trusts), model, rationale and, since 3.0,
// its details. One finding per rule matched, filed under the domain (rule id pingcastle:<RiskId>),
// rated by its points; the domain and each controller are assets. The rest of the report (users,
// groups, GPOs, often most of the file) is streamed past.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, Notes, tally, underLimit } from './json-fields.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'
import { fromDateText, unique } from './scan-collector.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'PingCastle XML'

export const pingcastleRuleId = (riskId: string) => `pingcastle:${riskId}`

/** A rule's points as a severity: PingCastle adds them up to a score of 100 per category. */
export function pingcastleSeverity(points: number): Severity {
  if (points >= 50) return 'critical'
  if (points >= 20) return 'high'
  if (points >= 10) return 'medium'
  if (points >= 1) return 'low'
  return 'info'
}

const HEADER = [
  'EngineVersion',
  'GenerationDate',
  'DomainFQDN',
  'NetBIOSName',
  'ForestFQDN',
  'DomainSid',
  'DomainFunctionalLevel',
  'ForestFunctionalLevel',
  'MaturityLevel',
  'Level',
  'GlobalScore',
  'StaleObjectsScore',
  'PrivilegiedGroupScore',
  'TrustScore',
  'AnomalyScore',
] as const

const strings = (node: XmlNode | undefined) =>
  childrenNamed(node, 'string')
    .map((s) => textOf(s))
    .filter(Boolean)

export const pingcastleXmlParser: ScanParser = {
  format: 'pingcastle_xml',
  label: LABEL,
  services: ['network'],
  sniff: (head) => xmlRootTag(head)?.name === 'HealthcheckData',
  async parse(source) {
    const notes = new Notes()
    const header: Record<string, string> = {}
    const rules: XmlNode[] = []
    const controllers: XmlNode[] = []

    await readXml(source, LABEL, {
      root: (root) => {
        if (root.name !== 'HealthcheckData')
          throw new ScanParseError(
            LABEL,
            `line ${root.line}`,
            `the root element is <${root.name}>, not <HealthcheckData>: export the health-check report (ad_hc_<domain>.xml)`,
          )
      },
      collect: {
        ...Object.fromEntries(
          HEADER.map((name) => [`HealthcheckData/${name}`, (node: XmlNode) => (header[name] = bounded(textOf(node), 300))]),
        ),
        'HealthcheckData/RiskRules/HealthcheckRiskRule': (rule) => {
          if (underLimit(rules.length, PARSE_LIMITS.findings, notes, `line ${rule.line}`, 'risk rules')) rules.push(rule)
        },
        'HealthcheckData/DomainControllers/HealthcheckDomainController': (dc) => {
          if (underLimit(controllers.length, PARSE_LIMITS.assets - 1, notes, `line ${dc.line}`, 'domain controllers')) controllers.push(dc)
        },
      },
    })

    const domain = header.DomainFQDN ?? ''
    if (!domain) throw new ScanParseError(LABEL, 'file', 'no <DomainFQDN>: the report does not say which domain it checked')
    const statistics: Record<string, number> = { rules: rules.length, domainControllers: controllers.length }
    for (const score of ['GlobalScore', 'StaleObjectsScore', 'PrivilegiedGroupScore', 'TrustScore', 'AnomalyScore'] as const) {
      const value = numberOf(header[score])
      if (value !== undefined) statistics[`score:${score.replace(/Score$/, '').replace('Privilegied', 'Privileged')}`] = value
    }
    const maturity = numberOf(header.MaturityLevel)
    if (maturity !== undefined) statistics.maturityLevel = maturity

    const findings: ParsedFinding[] = []
    const seen = new Set<string>()
    for (const rule of rules) {
      const where = `line ${rule.line}`
      const riskId = bounded(textOf(rule, 'RiskId'), 200)
      if (!riskId) {
        notes.skip(where, 'a risk rule without a RiskId')
        continue
      }
      if (seen.has(riskId)) {
        tally(statistics, 'duplicateRules')
        continue
      }
      seen.add(riskId)
      const points = numberOf(textOf(rule, 'Points'))
      if (points === undefined) notes.warn(where, `${riskId}: no points, read as info`)
      const severity = pingcastleSeverity(points ?? 0)
      tally(statistics, `severity:${severity}`)
      const rationale = bounded(textOf(rule, 'Rationale'), 4_000)
      const details = strings(child(rule, 'Details')).map((d) => bounded(d, 1_000))
      const category = bounded(textOf(rule, 'Category'), 100)
      const model = bounded(textOf(rule, 'Model'), 100)
      const cve = cveIds([riskId, rationale, ...details])
      findings.push({
        ruleId: pingcastleRuleId(riskId),
        title: rationale ? bounded(`${riskId}: ${rationale}`, 500) : riskId,
        severity,
        target: { kind: 'host', host: domain },
        ...(cve.length > 0 ? { cve } : {}),
        tags: [category, model].filter(Boolean),
        ...(rationale ? { description: rationale } : {}),
        evidence: bounded([rationale, ...details.slice(0, 200)].filter(Boolean).join('\n'), PARSE_LIMITS.maxEvidenceChars) || riskId,
        raw: fitRaw({
          riskId,
          points: points ?? null,
          category: category || null,
          model: model || null,
          ...(details.length > 0 ? { details: details.slice(0, 200) } : {}),
        }),
      })
    }

    const assets: ParsedAsset[] = [
      {
        type: 'domain',
        value: domain,
        raw: fitRaw(
          Object.fromEntries(
            (['NetBIOSName', 'ForestFQDN', 'DomainSid', 'DomainFunctionalLevel', 'ForestFunctionalLevel', 'Level'] as const)
              .filter((k) => header[k])
              .map((k) => [k.charAt(0).toLowerCase() + k.slice(1), header[k]]),
          ),
        ),
      },
    ]
    for (const dc of controllers) {
      const name = bounded(textOf(dc, 'DCName'), 300)
      if (!name) {
        notes.skip(`line ${dc.line}`, 'a domain controller without a name')
        continue
      }
      const ips = unique(strings(child(dc, 'IP'))).slice(0, 50)
      const fsmo = strings(child(dc, 'FSMO'))
      assets.push({
        type: 'host',
        value: name,
        parent: domain,
        raw: fitRaw({
          ...(textOf(dc, 'OperatingSystem') ? { os: bounded(textOf(dc, 'OperatingSystem'), 300) } : {}),
          ...(ips.length > 0 ? { ips } : {}),
          ...(fsmo.length > 0 ? { fsmo: fsmo.slice(0, 10) } : {}),
          ...(textOf(dc, 'DistinguishedName') ? { distinguishedName: bounded(textOf(dc, 'DistinguishedName'), 500) } : {}),
          ...(textOf(dc, 'RODC') ? { rodc: textOf(dc, 'RODC') === 'true' } : {}),
          ...(textOf(dc, 'SupportSMB1') ? { smb1: textOf(dc, 'SupportSMB1') === 'true' } : {}),
          ...(textOf(dc, 'HasNullSession') ? { nullSession: textOf(dc, 'HasNullSession') === 'true' } : {}),
          ...(textOf(dc, 'RemoteSpoolerDetected') ? { remoteSpooler: textOf(dc, 'RemoteSpoolerDetected') === 'true' } : {}),
        }),
      })
    }

    const scan: ParsedScan = {
      format: 'pingcastle_xml',
      tool: { name: 'PingCastle', version: header.EngineVersion ?? '' },
      startedAt: null,
      finishedAt: fromDateText(header.GenerationDate),
      targets: [domain],
      findings,
      assets,
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
