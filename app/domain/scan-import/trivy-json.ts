// Trivy's JSON report (`--format json`): the current schema 2 (image, filesystem, repository, SBOM
// and VM scans: Results[] of vulnerabilities, misconfigurations and secrets), the legacy top-level
// array of results (before 0.20), and `trivy k8s` reports (ClusterName with Resources[], or the
// older Vulnerabilities[] and Misconfigurations[] lists of resources). One finding per vulnerable
// package, failed misconfiguration and secret; passed checks and licences are counted. Every
// vulnerability, check and secret is read one at a time, so a large image's report stays small.
import type { Severity } from '../template-vocabulary.ts'
import {
  cveIds,
  cweIds,
  epochMs,
  int,
  isRecord,
  list,
  Notes,
  num,
  record,
  tally,
  text,
  texts,
  underLimit,
  type JsonRecord,
} from './json-fields.ts'
import { peekSource, streamJsonValues } from './json-stream.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type FindingTarget,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'
import { unique } from './scan-collector.ts'

const LABEL = 'Trivy JSON'

const SEVERITY: Record<string, Severity> = { CRITICAL: 'critical', HIGH: 'high', MEDIUM: 'medium', LOW: 'low', UNKNOWN: 'info' }

/** A secret's rule id: Trivy's rule names are plain words ("github-pat"), so they say they are secrets. */
export const trivySecretRuleId = (ruleId: string) => `secret:${ruleId}`

// Where results sit in each shape: schema 2, the legacy array, k8s reports old and new.
const RESULT_PREFIXES = ['$.Results.*', '$.Resources.*.Results.*', '$.Vulnerabilities.*.Results.*', '$.Misconfigurations.*.Results.*']
const RESOURCE_PREFIXES = ['$.Resources.*', '$.Vulnerabilities.*', '$.Misconfigurations.*']
const RESULT_FIELDS = ['Target', 'Class', 'Type', 'MisconfSummary', 'Vulnerabilities.*', 'Misconfigurations.*', 'Secrets.*', 'Licenses.*']
const OBJECT_PATHS = [
  '$.SchemaVersion',
  '$.CreatedAt',
  '$.ArtifactName',
  '$.ArtifactType',
  '$.Trivy.Version',
  '$.Metadata.OS',
  '$.Metadata.ImageID',
  '$.Metadata.RepoDigests',
  '$.ClusterName',
  ...RESOURCE_PREFIXES.flatMap((prefix) => ['Namespace', 'Kind', 'Name'].map((field) => `${prefix}.${field}`)),
  ...RESULT_PREFIXES.flatMap((prefix) => RESULT_FIELDS.map((field) => `${prefix}.${field}`)),
]
const ARRAY_PATHS = RESULT_FIELDS.map((field) => `$.*.${field}`)

/** "$.Resources[2].Results[0].Vulnerabilities[7]" → its result ("$.Resources[2].Results[0]"), resource ("$.Resources[2]") and field. */
const PATH =
  /^(\$(?:\.(?:Resources|Vulnerabilities|Misconfigurations)\[\d+\])?)(?:(\.Results\[\d+\]|\[\d+\])(?:\.(\w+)(?:\[\d+\])?)?|\.(\w+))$/

interface ResultContext {
  target: string
  class: string
  type: string
}

interface ResourceContext {
  namespace: string
  kind: string
  name: string
}

/** The newest CVSS of a vulnerability, from the source Trivy rated it by, else any: v4.0, then v3, then v2. */
function cvssOf(vulnerability: JsonRecord): ParsedFinding['cvss'] {
  const sources = record(vulnerability.CVSS)
  const preferred = text(vulnerability.SeveritySource, 40)
  const ordered = [...(preferred && sources[preferred] ? [sources[preferred]] : []), ...Object.values(sources)]
  for (const [vectorKey, scoreKey, version] of [
    ['V40Vector', 'V40Score', '4.0'],
    ['V3Vector', 'V3Score', ''],
    ['V2Vector', 'V2Score', '2.0'],
  ] as const) {
    for (const source of ordered.map(record)) {
      const vector = text(source[vectorKey], 256)
      const score = num(source[scoreKey])
      if (!vector || score === undefined || score < 0 || score > 10) continue
      return { version: version || (/^CVSS:(3\.\d)\//.exec(vector)?.[1] ?? '3.1'), vector, score }
    }
  }
  return undefined
}

function severityOf(value: unknown, notes: Notes, where: string, what: string, statistics: Record<string, number>): Severity {
  const said = text(value, 20)?.toUpperCase() ?? ''
  if (said === 'UNKNOWN') tally(statistics, 'unknownSeverity')
  const severity = SEVERITY[said]
  if (!severity) notes.warn(where, `${what}: severity ${JSON.stringify(value ?? null)} read as info`)
  return severity ?? 'info'
}

/** Code lines Trivy shows for a misconfiguration or secret (secrets come masked), as text. */
function codeLines(code: unknown): string {
  return list(record(code).Lines)
    .map(record)
    .map((line) => `${int(line.Number) ?? ''}: ${text(line.Content, 500) ?? ''}`)
    .slice(0, 30)
    .join('\n')
}

export const trivyJsonParser: ScanParser = {
  format: 'trivy_json',
  label: LABEL,
  services: ['cloud'],
  sniff(head) {
    if (/^\s*\{/.test(head)) {
      // Schema 2 (with its ArtifactType), or a k8s report's cluster and resources.
      if (/"SchemaVersion"\s*:\s*2\b/.test(head) && /"ArtifactName"\s*:/.test(head) && /"(ArtifactType|Results)"\s*:/.test(head))
        return true
      return (
        /"ClusterName"\s*:/.test(head) && /"(Resources|Vulnerabilities|Misconfigurations)"\s*:\s*\[/.test(head) && /"Kind"\s*:/.test(head)
      )
    }
    // The legacy array: results of Target and Type with Trivy's vulnerability fields.
    return /^\s*\[\s*\{\s*"Target"\s*:/.test(head) && /"VulnerabilityID"\s*:|"Vulnerabilities"\s*:\s*null/.test(head)
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const statistics: Record<string, number> = {
      results: 0,
      vulnerabilities: 0,
      misconfigurations: 0,
      misconfigurationsPassed: 0,
      secrets: 0,
      licences: 0,
      notAffected: 0,
      resources: 0,
    }
    const header: JsonRecord = {}
    const results = new Map<string, ResultContext>()
    const resources = new Map<string, ResourceContext>()
    const assets = new Map<string, ParsedAsset>()
    const { first, source } = await peekSource(input)
    if (first === 'n') return emptyReport(notes)
    if (first !== '{' && first !== '[')
      throw new ScanParseError(LABEL, 'line 1', 'neither a Trivy report object nor the legacy array of results')
    const paths = first === '[' ? ARRAY_PATHS : OBJECT_PATHS

    const artifact = () => text(header.ArtifactName, 2_048) ?? ''
    const cluster = () => text(header.ClusterName, 500)
    const addAsset = (asset: ParsedAsset) => {
      const key = `${asset.value}\u001f${asset.parent ?? ''}`
      if (!assets.has(key) && assets.size < PARSE_LIMITS.assets) assets.set(key, asset)
    }

    /** Where a finding is, as the cloud service files it: cluster or artifact, namespace, what kind of thing, and which. */
    const targetOf = (result: ResultContext, resource: ResourceContext | undefined, what: string, provider?: string): FindingTarget => {
      const kubernetes = cluster() !== undefined
      const owner = resource ? `${resource.kind}/${resource.name}` : ''
      return {
        kind: 'cloud',
        provider: kubernetes
          ? 'kubernetes'
          : (provider ??
            (text(header.ArtifactType, 60) === 'container_image' || !header.ArtifactType ? 'container' : text(header.ArtifactType, 60)!)),
        account: bounded(kubernetes ? (cluster() ?? '') : artifact(), 2_048),
        region: bounded(resource?.namespace ?? '', 500),
        cloudService: bounded(result.type || result.class || 'unknown', 200),
        resource: bounded(unique([owner, result.target, what].filter(Boolean)).join(' › '), 2_048),
      }
    }

    const push = (finding: ParsedFinding, where: string) => {
      if (underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) findings.push(finding)
    }

    const readVulnerability = (value: JsonRecord, result: ResultContext, resource: ResourceContext | undefined, where: string) => {
      tally(statistics, 'vulnerabilities')
      const id = text(value.VulnerabilityID, 200)
      const pkg = text(value.PkgName, 500) ?? ''
      if (!id) return notes.skip(where, `${pkg || 'a vulnerability'}: no VulnerabilityID`)
      const status = text(value.Status, 40)
      if (status === 'not_affected') {
        tally(statistics, 'notAffected')
        return
      }
      const installed = text(value.InstalledVersion, 200) ?? ''
      const fixed = text(value.FixedVersion, 500)
      const pkgPath = text(value.PkgPath, 1_000)
      const severity = severityOf(value.Severity, notes, where, id, statistics)
      const title = text(value.Title, 500)
      const references = texts([value.PrimaryURL, ...list(value.References)], 50)
      const cve = cveIds([id, ...list(value.VendorIDs)])
      const dataSource = record(value.DataSource)
      push(
        {
          ruleId: id,
          title: `${id} in ${pkg || 'a package'}${title ? `: ${title}` : ''}`.slice(0, 1_000),
          severity,
          target: targetOf(result, resource, pkgPath ? `${pkg} (${pkgPath})` : pkg),
          cvss: cvssOf(value),
          cwe: cweIds(value.CweIDs),
          cve,
          ...(status ? { tags: [status] } : {}),
          description: text(value.Description),
          remediation: fixed
            ? `Upgrade ${pkg} from ${installed || 'the installed version'} to ${fixed}.`
            : status === 'will_not_fix' || status === 'end_of_life'
              ? `No fix will be published for ${pkg} (${status.replaceAll('_', ' ')}): replace or remove it.`
              : undefined,
          references,
          evidence: bounded(
            [`${pkg} ${installed}`.trim(), pkgPath && `in ${pkgPath}`, fixed && `fixed in ${fixed}`].filter(Boolean).join(', '),
            2_000,
          ),
          raw: fitRaw({
            class: result.class || null,
            target: bounded(result.target, 1_000),
            pkgName: pkg,
            installedVersion: installed,
            ...(fixed ? { fixedVersion: fixed } : {}),
            ...(status ? { status } : {}),
            ...(text(record(value.PkgIdentifier).PURL) ? { purl: text(record(value.PkgIdentifier).PURL, 1_000) } : {}),
            ...(text(value.SeveritySource) ? { severitySource: text(value.SeveritySource, 40) } : {}),
            ...(text(dataSource.ID) ? { dataSource: text(dataSource.ID, 100) } : {}),
            ...(isRecord(value.VendorSeverity) ? { vendorSeverity: value.VendorSeverity } : {}),
            ...(texts(value.VendorIDs).length ? { vendorIds: texts(value.VendorIDs, 20) } : {}),
            ...(text(value.PublishedDate) ? { publishedDate: text(value.PublishedDate, 40) } : {}),
            ...(text(value.LastModifiedDate) ? { lastModifiedDate: text(value.LastModifiedDate, 40) } : {}),
            ...(text(record(value.Layer).DiffID) ? { layer: text(record(value.Layer).DiffID, 100) } : {}),
          }),
        },
        where,
      )
    }

    const readMisconfiguration = (value: JsonRecord, result: ResultContext, resource: ResourceContext | undefined, where: string) => {
      const id = text(value.ID, 200) ?? text(value.AVDID, 200)
      const status = text(value.Status, 20)?.toUpperCase()
      if (status === 'PASS' || status === 'EXCEPTION') {
        tally(statistics, 'misconfigurationsPassed')
        return
      }
      tally(statistics, 'misconfigurations')
      if (!id) return notes.skip(where, 'a misconfiguration without an ID')
      const cause = record(value.CauseMetadata)
      const code = codeLines(cause.Code)
      const startLine = int(cause.StartLine)
      const causeResource = text(cause.Resource, 500)
      push(
        {
          ruleId: id,
          title: text(value.Title, 500) ?? id,
          severity: severityOf(value.Severity, notes, where, id, statistics),
          target: targetOf(result, resource, causeResource ?? '', text(cause.Provider, 60)?.toLowerCase()),
          description: text(value.Description),
          remediation: text(value.Resolution),
          references: texts([value.PrimaryURL, ...list(value.References)], 50),
          evidence: bounded([text(value.Message), code].filter(Boolean).join('\n\n'), PARSE_LIMITS.maxEvidenceChars) || undefined,
          raw: fitRaw({
            class: result.class || null,
            target: bounded(result.target, 1_000),
            checkType: text(value.Type, 200) ?? null,
            ...(text(value.AVDID) ? { avdId: text(value.AVDID, 100) } : {}),
            ...(text(value.Namespace) ? { namespace: text(value.Namespace, 300) } : {}),
            ...(text(cause.Service) ? { service: text(cause.Service, 100) } : {}),
            ...(causeResource ? { resource: causeResource } : {}),
            ...(startLine !== undefined ? { startLine, endLine: int(cause.EndLine) ?? startLine } : {}),
          }),
        },
        where,
      )
    }

    const readSecret = (value: JsonRecord, result: ResultContext, resource: ResourceContext | undefined, where: string) => {
      tally(statistics, 'secrets')
      const rule = text(value.RuleID, 200)
      if (!rule) return notes.skip(where, 'a secret without a RuleID')
      const line = int(value.StartLine)
      // Trivy masks the secret in Match and in the code it shows; nothing else of it is kept.
      push(
        {
          ruleId: trivySecretRuleId(rule),
          title: text(value.Title, 500) ?? rule,
          severity: severityOf(value.Severity, notes, where, rule, statistics),
          target: targetOf(result, resource, line !== undefined ? `line ${line}` : ''),
          cwe: ['CWE-798'],
          description: `A secret (${text(value.Category, 100) ?? 'unknown kind'}) was found in ${result.target}${line !== undefined ? ` at line ${line}` : ''}.`,
          remediation: 'Revoke the secret, remove it from the file and its history, and keep secrets in a secret store.',
          evidence: text(value.Match, 2_000),
          raw: fitRaw({
            target: bounded(result.target, 1_000),
            category: text(value.Category, 100) ?? null,
            ...(line !== undefined ? { startLine: line, endLine: int(value.EndLine) ?? line } : {}),
          }),
        },
        where,
      )
    }

    for await (const { value, path } of streamJsonValues(source, { formatLabel: LABEL, paths })) {
      if (path === '$.Trivy.Version' || path.startsWith('$.Metadata.')) {
        header[path.slice(2)] = value
        continue
      }
      const match = PATH.exec(path)
      if (!match) continue
      const [, resourceKey = '$', resultPart, resultField, headerField] = match
      if (headerField) {
        if (resourceKey !== '$') {
          const resource = resources.get(resourceKey) ?? { namespace: '', kind: '', name: '' }
          if (headerField === 'Namespace') resource.namespace = text(value, 500) ?? ''
          if (headerField === 'Kind') resource.kind = text(value, 200) ?? ''
          if (headerField === 'Name') resource.name = text(value, 1_000) ?? ''
          if (!resources.has(resourceKey)) tally(statistics, 'resources')
          resources.set(resourceKey, resource)
        } else header[headerField] = value
        continue
      }
      const resultKey = `${resourceKey}${resultPart ?? ''}`
      let result = results.get(resultKey)
      if (!result) {
        result = { target: '', class: '', type: '' }
        results.set(resultKey, result)
        tally(statistics, 'results')
      }
      const resource = resources.get(resourceKey)
      if (resultField === 'Target') result.target = text(value, 2_048) ?? ''
      else if (resultField === 'Class') result.class = text(value, 100) ?? ''
      else if (resultField === 'Type') result.type = text(value, 100) ?? ''
      else if (resultField === 'MisconfSummary') tally(statistics, 'checksPassedInSummaries', int(record(value).Successes) ?? 0)
      else if (resultField === 'Licenses') tally(statistics, 'licences')
      else if (!isRecord(value)) notes.skip(path, `the ${resultField ?? 'value'} entry is not an object`)
      else if (resultField === 'Vulnerabilities') readVulnerability(value, result, resource, path)
      else if (resultField === 'Misconfigurations') readMisconfiguration(value, result, resource, path)
      else if (resultField === 'Secrets') readSecret(value, result, resource, path)
      if (resultField === 'Target' && result.target) {
        const name =
          cluster() !== undefined && resource
            ? [resource.namespace, resource.kind, resource.name].filter(Boolean).join('/')
            : artifact() || result.target
        const os = record(header['Metadata.OS'])
        const system = [text(os.Family, 100), text(os.Name, 100)].filter(Boolean).join(' ')
        addAsset({
          type: 'cloud_resource',
          value: bounded(name, 2_048),
          cloud: {
            account: bounded(cluster() ?? artifact(), 2_048),
            region: bounded(resource?.namespace ?? '', 500),
            cloudService: bounded(
              cluster() !== undefined ? (resource?.kind ?? 'kubernetes') : (text(header.ArtifactType, 60) ?? 'container_image'),
              200,
            ),
          },
          technologies: system ? [system] : [],
          raw: fitRaw({
            ...(text(header['Metadata.ImageID']) ? { imageId: text(header['Metadata.ImageID'], 200) } : {}),
            ...(texts(header['Metadata.RepoDigests']).length ? { repoDigests: texts(header['Metadata.RepoDigests'], 10) } : {}),
          }),
        })
      }
    }

    if (first === '{' && header.SchemaVersion === undefined && header.ClusterName === undefined && header.ArtifactName === undefined)
      throw new ScanParseError(LABEL, 'file', 'neither SchemaVersion, ArtifactName nor ClusterName: not a Trivy report')
    const created = epochMs(header.CreatedAt)
    const scan: ParsedScan = {
      format: 'trivy_json',
      tool: { name: 'Trivy', version: text(header['Trivy.Version'], 40) ?? '' },
      startedAt: null,
      finishedAt: created,
      targets: [cluster() ?? artifact()].filter(Boolean),
      findings,
      assets: [...assets.values()],
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}

/** `trivy image --format json` of an image without results wrote "null" before 0.20. */
const emptyReport = (notes: Notes): ParsedScan => ({
  format: 'trivy_json',
  tool: { name: 'Trivy', version: '' },
  startedAt: null,
  finishedAt: null,
  targets: [],
  findings: [],
  assets: [],
  statistics: { results: 0, findings: 0 },
  notes: notes.kept,
})
