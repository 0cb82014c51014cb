// Grype's JSON output (`-o json`, Grype 0.7 to 0.96): matches[] of a vulnerability and the package
// (artifact) it was found in, with the scanned source (an image, a directory, a file or an SBOM) and
// the distribution. One finding per vulnerability, package and location, rated by Grype's severity
// (Negligible and Unknown read as info), with the CVSS of the match or of its related NVD record,
// EPSS and the fix. Matches are read one at a time; the source may come after them (Grype sorts keys
// in some versions), so findings are filed under it at the end.
import type { Severity } from '../template-vocabulary.ts'
import {
  cveIds,
  cweIds,
  epochMs,
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
import { streamJsonValues } from './json-stream.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'

const LABEL = 'Grype JSON'
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g

const SEVERITY: Record<string, Severity> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  negligible: 'info',
  unknown: 'info',
}

/** The newest CVSS among the records given, primary sources first: 4.0, then 3.x, then 2.0. */
function cvssOf(...records: JsonRecord[]): ParsedFinding['cvss'] {
  const entries = records.flatMap((r) => list(r.cvss).map(record))
  const ranked = entries
    .map((entry) => ({
      version: text(entry.version, 8) ?? '',
      vector: text(entry.vector, 256),
      score: num(record(entry.metrics).baseScore),
      primary: text(entry.type, 20) !== 'Secondary',
    }))
    .filter((e) => e.vector && e.score !== undefined && e.score >= 0 && e.score <= 10 && /^[234]\.\d$/.test(e.version))
    .sort((a, b) => Number(b.version) - Number(a.version) || Number(b.primary) - Number(a.primary))
  const best = ranked[0]
  return best?.vector && best.score !== undefined ? { version: best.version, vector: best.vector, score: best.score } : undefined
}

export const grypeJsonParser: ScanParser = {
  format: 'grype_json',
  label: LABEL,
  services: ['cloud'],
  sniff(head) {
    if (!/^\s*\{/.test(head) || !/"matches"\s*:\s*\[/.test(head)) return false
    return (
      /"name"\s*:\s*"grype"/.test(head) ||
      (/"vulnerability"\s*:\s*\{/.test(head) && /"artifact"\s*:\s*\{/.test(head) && /"matchDetails"\s*:/.test(head))
    )
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const statistics: Record<string, number> = { matches: 0 }
    const header: JsonRecord = {}
    const seen = new Set<string>()
    const paths = [
      '$.matches.*',
      '$.source.type',
      '$.source.target',
      '$.distro.name',
      '$.distro.version',
      '$.descriptor.name',
      '$.descriptor.version',
      '$.descriptor.timestamp',
    ]
    for await (const { value, path } of streamJsonValues(input, { formatLabel: LABEL, paths })) {
      if (!path.startsWith('$.matches[')) {
        header[path.slice(2)] = value
        continue
      }
      tally(statistics, 'matches')
      if (!isRecord(value)) {
        notes.skip(path, 'the match is not an object')
        continue
      }
      const vulnerability = record(value.vulnerability)
      const artifact = record(value.artifact)
      const id = text(vulnerability.id, 200)
      const name = text(artifact.name, 500)
      if (!id || !name) {
        notes.skip(path, `${id ?? 'a match'}: no vulnerability id or package name`)
        continue
      }
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, path, 'findings')) continue
      const related = list(value.relatedVulnerabilities).map(record)
      const severityText = text(vulnerability.severity, 20)?.toLowerCase() ?? ''
      const severity = SEVERITY[severityText]
      if (!severity) notes.warn(path, `${id}: severity ${JSON.stringify(vulnerability.severity ?? null)} read as info`)
      tally(statistics, `severity:${severityText || 'none'}`)
      // Versions read out of binaries may hold control characters (a NUL in a Java version string).
      const version = (text(artifact.version, 200) ?? '').replace(CONTROL, '')
      const location = text(record(list(artifact.locations)[0]).path, 1_000)
      const fix = record(vulnerability.fix)
      const fixedIn = texts(fix.versions, 10)
      const fixState = text(fix.state, 40)
      const epss = record(list(vulnerability.epss)[0])
      const key = `${id}\u001f${name}\u001f${location ?? ''}`
      if (seen.has(key)) {
        // Grype lists a vulnerability again when a second matcher finds it (by CPE and by the distribution's feed).
        tally(statistics, 'duplicateMatches')
        continue
      }
      seen.add(key)
      const description = text(vulnerability.description) ?? related.map((r) => text(r.description)).find(Boolean)
      findings.push({
        ruleId: id,
        title: `${id} in ${name} ${version}`.trim(),
        severity: severity ?? 'info',
        // The account is the scanned source, known once the whole file is read.
        target: {
          kind: 'cloud',
          provider: '',
          account: '',
          region: '',
          cloudService: text(artifact.type, 100) ?? 'unknown',
          resource: bounded(location ? `${name} (${location})` : name, 2_048),
        },
        cvss: cvssOf(vulnerability, ...related),
        cwe: cweIds(related.flatMap((r) => list(r.cwes))),
        cve: cveIds([id, ...related.map((r) => r.id)]),
        ...(fixState ? { tags: [fixState] } : {}),
        description,
        remediation: fixedIn.length
          ? `Upgrade ${name} from ${version || 'the installed version'} to ${fixedIn.join(' or ')}.`
          : fixState === 'wont-fix'
            ? `No fix will be published for ${name}: replace or remove it.`
            : undefined,
        references: texts([vulnerability.dataSource, ...list(vulnerability.urls), ...related.map((r) => r.dataSource)], 50),
        evidence: bounded(
          [`${name} ${version}`.trim(), location && `at ${location}`, fixedIn.length ? `fixed in ${fixedIn.join(', ')}` : '']
            .filter(Boolean)
            .join(', '),
          2_000,
        ),
        raw: fitRaw({
          namespace: text(vulnerability.namespace, 200) ?? null,
          packageType: text(artifact.type, 100) ?? null,
          packageVersion: version,
          ...(text(artifact.purl) ? { purl: text(artifact.purl, 1_000) } : {}),
          ...(text(artifact.language) ? { language: text(artifact.language, 100) } : {}),
          ...(fixState ? { fixState } : {}),
          ...(fixedIn.length ? { fixedIn } : {}),
          ...(num(epss.epss) !== undefined ? { epss: num(epss.epss), epssPercentile: num(epss.percentile) ?? null } : {}),
          ...(num(vulnerability.risk) !== undefined ? { risk: num(vulnerability.risk) } : {}),
          ...(list(artifact.locations).length > 1
            ? {
                locations: list(artifact.locations)
                  .slice(0, 20)
                  .map((l) => text(record(l).path, 500)),
              }
            : {}),
          ...(text(record(list(artifact.locations)[0]).layerID) ? { layer: text(record(list(artifact.locations)[0]).layerID, 100) } : {}),
          ...(texts(list(value.matchDetails).map((d) => record(d).type)).length
            ? {
                matchTypes: texts(
                  list(value.matchDetails).map((d) => record(d).type),
                  10,
                ),
              }
            : {}),
        }),
      })
    }

    if (header['descriptor.name'] === undefined && header['source.type'] === undefined && statistics.matches === 0)
      throw new ScanParseError(LABEL, 'file', 'no matches, source or descriptor: not a Grype report')
    const sourceType = text(header['source.type'], 40) ?? ''
    const sourceTarget = header['source.target']
    const account =
      (isRecord(sourceTarget) ? text(sourceTarget.userInput, 2_048) : text(sourceTarget, 2_048)?.replace(/^"(.*)"$/, '$1')) ?? ''
    const provider = sourceType === 'image' ? 'container' : sourceType || 'filesystem'
    for (const finding of findings) if (finding.target.kind === 'cloud') Object.assign(finding.target, { provider, account })
    const distro = [text(header['distro.name'], 100), text(header['distro.version'], 100)].filter(Boolean).join(' ')
    const scan: ParsedScan = {
      format: 'grype_json',
      tool: { name: 'Grype', version: text(header['descriptor.version'], 40) ?? '' },
      startedAt: null,
      finishedAt: epochMs(header['descriptor.timestamp']),
      targets: account ? [account] : [],
      findings,
      assets: account
        ? [
            {
              type: 'cloud_resource',
              value: account,
              cloud: { account, region: '', cloudService: sourceType || 'unknown' },
              technologies: distro ? [distro] : [],
              raw: fitRaw({
                ...(isRecord(sourceTarget) && text(sourceTarget.imageID) ? { imageId: text(sourceTarget.imageID, 200) } : {}),
                ...(isRecord(sourceTarget) && texts(sourceTarget.repoDigests).length
                  ? { repoDigests: texts(sourceTarget.repoDigests, 10) }
                  : {}),
              }),
            },
          ]
        : [],
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
