// The seeded draft's review material: what an import of its file would have written under
// scans/{id}/draft_findings and draft_assets (scan-drafts.ts), so publishing the draft compares it
// with the year before instead of finding nothing. Each issue is turned into the parser's target
// and its fingerprint recomputed the way the import callable does; a few findings carry an
// analyst's review already (a false positive, a template chosen by hand), the rest are as mapped.
import type { ImportedFile, ImportReport } from '#domain/scans.ts'
import { draftAssetDocument, draftFindingDocument, type StoredDraftAsset, type StoredDraftFinding } from '#domain/scan-drafts.ts'
import { parsedFingerprint } from '#domain/scan-import/observed.ts'
import type { FindingTarget, ParsedFinding, ScanFormat } from '#domain/scan-import/parsed-scan.ts'
import { sha256Hex, type FingerprintParts } from '#domain/fingerprints.ts'
import type { ServiceId } from '#domain/services.ts'
import { templatesFor } from './catalogue.ts'
import { seededRandom } from './random.ts'
import type { AssetSpec, IssueSpec } from './universe.ts'

/** The file each service's seeded draft came from. */
const DRAFT_FILE: Record<ServiceId, { format: ScanFormat; tool: string; toolVersion: string; extension: string }> = {
  dast: { format: 'zap_xml', tool: 'ZAP', toolVersion: '2.16.1', extension: 'xml' },
  network: { format: 'openvas_xml', tool: 'Greenbone', toolVersion: '22.4', extension: 'xml' },
  cloud: { format: 'prowler_ocsf_json', tool: 'Prowler', toolVersion: '5.7.5', extension: 'ocsf.json' },
  projectmariana: { format: 'httpx_jsonl', tool: 'httpx', toolVersion: '1.7.0', extension: 'jsonl' },
  password_cracking: { format: 'ntds_potfile', tool: 'hashcat', toolVersion: '6.2.6', extension: 'ntds' },
}

/** Where an issue is, as the service's parser would have reported it. */
function issueTarget(service: ServiceId, issue: IssueSpec): FindingTarget {
  switch (service) {
    case 'dast': {
      const p = issue.parts as FingerprintParts['dast']
      return { kind: 'url', url: p.url, ...(p.method ? { method: p.method } : {}), ...(p.parameter ? { parameter: p.parameter } : {}) }
    }
    case 'network': {
      const p = issue.parts as FingerprintParts['network']
      return {
        kind: 'host',
        host: p.ip,
        ip: p.ip,
        ...(p.port === null || p.port === undefined ? {} : { port: p.port }),
        ...(p.protocol ? { protocol: p.protocol } : {}),
      }
    }
    case 'cloud': {
      const p = issue.parts as FingerprintParts['cloud']
      return {
        kind: 'cloud',
        provider: p.provider,
        account: p.account,
        region: p.region,
        cloudService: issue.location.cloudService ?? '',
        resource: p.resource,
      }
    }
    case 'projectmariana':
      return { kind: 'host', host: (issue.parts as FingerprintParts['projectmariana']).assetKey }
    case 'password_cracking': {
      const p = issue.parts as FingerprintParts['password_cracking']
      return { kind: 'account', domain: p.domain, account: p.account }
    }
  }
}

export interface DraftIssue {
  issue: IssueSpec
  /** The finding's fingerprint, as the year's scans used it. */
  fingerprint: string
  evidence: string
}

export interface DraftMaterial {
  file: ImportedFile
  report: ImportReport
  findings: Map<string, StoredDraftFinding>
  assets: Map<string, StoredDraftAsset>
}

export async function draftMaterial(input: {
  company: string
  service: ServiceId
  draftId: string
  issues: readonly DraftIssue[]
  assets: readonly { id: string; spec: AssetSpec; month: number }[]
  by: string
  at: number
}): Promise<DraftMaterial> {
  const { company, service, by, at } = input
  const kind = DRAFT_FILE[service]
  const file: ImportedFile = {
    name: `${company}-${input.draftId}.${kind.extension}`,
    sha256: await sha256Hex(`seed\u001f${company}\u001f${input.draftId}`),
    size: 40_000 + input.issues.length * 1_850 + input.assets.length * 420,
    format: kind.format,
    tool: kind.tool,
    toolVersion: kind.toolVersion,
  }

  // Rules no analyst has mapped yet: those without a template, or else two whose mapping is still to make.
  const random = seededRandom(`${company}/${service}/draft-review`)
  const rules = [...new Set(input.issues.map((i) => i.issue.rule.ruleId))].sort()
  const untemplated = new Set(input.issues.filter((i) => !i.issue.rule.template).map((i) => i.issue.rule.ruleId))
  const unmappedRules = untemplated.size > 0 ? untemplated : new Set(random.shuffle(rules).slice(0, 2))

  const findings = new Map<string, StoredDraftFinding>()
  for (const { issue, fingerprint, evidence } of input.issues) {
    const template = issue.rule.template
    const mapped = template && !unmappedRules.has(issue.rule.ruleId)
    const parsed: ParsedFinding = {
      ruleId: issue.rule.ruleId,
      title: issue.rule.title,
      severity: issue.rule.severity,
      target: issueTarget(service, issue),
      ...(template?.cvss ? { cvss: { version: template.cvss.version, vector: template.cvss.vector, score: template.cvss.score } } : {}),
      cwe: template ? [...template.cwe] : [],
      tags: template ? [...template.tags] : [issue.rule.ruleId.split(':')[0] ?? 'scanner'],
      // Scanners describe what they report: the template's words stand in for the scanner's own.
      ...(template ? { description: template.description, remediation: template.remediation, references: [...template.references] } : {}),
      evidence,
      raw: {},
    }
    // The import's own identity must land on the finding the year's scans made, or publishing would start it again.
    const id = await parsedFingerprint(service, parsed)
    if (id !== fingerprint)
      throw new Error(`${company} ${service}: the draft finding of ${issue.rule.ruleId} at ${issue.asset} is not ${fingerprint}`)
    findings.set(id, {
      ...draftFindingDocument(parsed, file.sha256, by, at),
      // What the client already reads for this finding, word for word.
      asset: issue.asset,
      location: issue.location,
      templateSlug: mapped ? template.slug : null,
      templateSource: mapped ? 'mapping' : 'none',
    })
  }

  // An analyst's review under way: one scanner hit dismissed, one unmapped finding given a template by hand.
  const ids = [...findings.keys()].sort()
  const issueOf = new Map(input.issues.map((i) => [i.fingerprint, i.issue]))
  const unmapped = ids.filter((id) => findings.get(id)!.templateSource === 'none')
  const minor = ids.filter((id) => ['info', 'low'].includes(findings.get(id)!.severity))
  const dismissable = minor.length > 0 ? minor : ids.filter((id) => findings.get(id)!.severity !== 'critical')
  const falsePositive = dismissable.length > 0 ? random.pick(dismissable) : null
  if (falsePositive) findings.set(falsePositive, { ...findings.get(falsePositive)!, falsePositive: true })
  const chosen = unmapped.filter((id) => id !== falsePositive)
  const templates = templatesFor(service)
  if (chosen.length > 0 && templates.length > 0) {
    const id = random.pick(chosen)
    const draft = findings.get(id)!
    const template = issueOf.get(id)?.rule.template ?? templates.find((t) => t.severity === draft.severity) ?? random.pick(templates)
    findings.set(id, { ...draft, templateSlug: template.slug, templateSource: 'analyst' })
  }

  const assets = new Map<string, StoredDraftAsset>()
  for (const { id, spec, month } of input.assets)
    assets.set(
      id,
      draftAssetDocument({
        type: spec.type,
        value: spec.value,
        ...(spec.parent ? { parent: spec.parent } : {}),
        ports: spec.ports?.(month) ?? [],
        technologies: spec.technologies ?? [],
        notAfter: spec.notAfter ?? null,
        ...(spec.issuer ? { issuer: spec.issuer } : {}),
        ...(spec.cloud ? { cloud: spec.cloud } : {}),
        ...(spec.account ? { account: spec.account } : {}),
      }),
    )

  const report: ImportReport = {
    findings: findings.size,
    assets: assets.size,
    skipped: 0,
    warnings: 0,
    notes: [],
    statistics: { findings: findings.size, assets: assets.size },
  }
  return { file, report, findings, assets }
}
