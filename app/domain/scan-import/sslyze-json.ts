// sslyze's JSON output (`--json_out`): sslyze 3 and 4 (`server_scan_results[]` of `server_info` and
// `scan_commands_results`, connectivity failures in `server_connectivity_errors`) and sslyze 5 and 6
// (`server_location`, `connectivity_status`, and `scan_result` whose every command has a status and
// a result). One finding per server and weakness, rule ids `sslyze:<check>` named as sslscan's are:
// old protocols offered, NULL, anonymous, weak and 3DES ciphers accepted (each cipher named),
// Heartbleed, CCS injection, ROBOT, insecure or client-initiated renegotiation, compression, no
// fallback SCSV, TLS 1.3 early data, and the certificate (hostname mismatch, untrusted by every trust
// store, expired at the scan, SHA-1 in the chain, a short key), whose leaf is an asset. Each server's
// result is read on its own.
import type { Severity } from '../template-vocabulary.ts'
import { epochMs, isRecord, list, Notes, num, record, tally, text, underLimit, type JsonRecord } from './json-fields.ts'
import { streamJsonValues } from './json-stream.ts'
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
import { unique } from './scan-collector.ts'

const LABEL = 'sslyze JSON'

/** The protocol scans, the weak ones rated as sslscan's and testssl.sh's findings are. */
const PROTOCOLS: { command: string; id: string; name: string; severity?: Severity }[] = [
  { command: 'ssl_2_0_cipher_suites', id: 'SSLv2', name: 'SSLv2', severity: 'critical' },
  { command: 'ssl_3_0_cipher_suites', id: 'SSLv3', name: 'SSLv3', severity: 'high' },
  { command: 'tls_1_0_cipher_suites', id: 'TLS1', name: 'TLS 1.0', severity: 'low' },
  { command: 'tls_1_1_cipher_suites', id: 'TLS1_1', name: 'TLS 1.1', severity: 'low' },
  { command: 'tls_1_2_cipher_suites', id: 'TLS1_2', name: 'TLS 1.2' },
  { command: 'tls_1_3_cipher_suites', id: 'TLS1_3', name: 'TLS 1.3' },
]

/** The strength of an accepted cipher suite, from its IANA name and key size. */
function strengthOf(suite: JsonRecord): 'null' | 'anonymous' | 'weak' | 'medium' | null {
  const name = text(suite.name, 200) ?? ''
  const bits = num(suite.key_size)
  if (/_NULL_|_WITH_NULL|NULL_WITH/i.test(name) || bits === 0) return 'null'
  if (suite.is_anonymous === true || /_anon_/i.test(name)) return 'anonymous'
  if (/RC4|EXPORT|_DES_|_DES40_|_RC2_|MD5$/i.test(name) || (bits !== undefined && bits < 112)) return 'weak'
  if (/3DES|_IDEA_/i.test(name)) return 'medium'
  return null
}

const CIPHER_STRENGTHS = {
  null: { name: 'NULL (unencrypted) ciphers', severity: 'high' },
  anonymous: { name: 'anonymous (unauthenticated) ciphers', severity: 'high' },
  weak: { name: 'weak ciphers', severity: 'medium' },
  medium: { name: '3DES and IDEA ciphers (64-bit blocks, Sweet32)', severity: 'low' },
} as const satisfies Record<string, { name: string; severity: Severity }>

/** A distinguished name's text: rfc4514_string, else its attributes joined. */
const nameOf = (value: unknown) => {
  const dn = record(value)
  return (
    text(dn.rfc4514_string, 1_000) ??
    list(dn.attributes)
      .map((a) => text(record(a).rfc4514_string, 300))
      .filter(Boolean)
      .join(',')
  )
}
const commonName = (value: unknown) =>
  list(record(value).attributes)
    .map(record)
    .find((a) => text(record(a.oid).name) === 'commonName')?.value

export const sslyzeJsonParser: ScanParser = {
  format: 'sslyze_json',
  label: LABEL,
  services: ['network', 'projectmariana'],
  sniff(head) {
    if (!/^\s*\{/.test(head) || !/"server_scan_results"\s*:\s*\[/.test(head)) return false
    return /"sslyze_(version|url)"\s*:/.test(head) || /"scan_commands_results"\s*:|"connectivity_status"\s*:/.test(head)
  },
  async parse(input) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const assets: ParsedAsset[] = []
    const targets: string[] = []
    const statistics: Record<string, number> = { servers: 0, unreachable: 0, ciphersAccepted: 0 }
    const header: JsonRecord = {}
    // Expiry is judged at the scan's date, which sslyze 5 writes first; sslyze 3 and 4 write none.
    let scanDate: number | null = null
    let seenResults = false

    const readServer = (value: unknown, path: string) => {
      statistics.servers!++
      if (!isRecord(value)) {
        notes.skip(path, 'the server result is not an object')
        return
      }
      const info = record(value.server_info)
      const location = record(value.server_location ?? info.server_location)
      const host = text(location.hostname, 300)
      const ip = text(location.ip_address, 100)
      const port = num(location.port)
      if (!host) {
        notes.skip(path, 'a server result without a hostname')
        return
      }
      const label = port !== undefined ? `${host}:${port}` : host
      targets.push(label)
      const status = text(value.connectivity_status, 40)
      if (status && status !== 'COMPLETED') {
        statistics.unreachable!++
        notes.skip(
          path,
          `${label}: not reached (${status}${text(value.connectivity_error_trace, 300) ? `: ${text(value.connectivity_error_trace, 300)}` : ''})`,
        )
        return
      }
      const sni = text(record(value.network_configuration ?? info.network_configuration).tls_server_name_indication, 300)
      const sniRaw = sni && sni !== host ? { sniName: sni } : {}
      const results = record(value.scan_result ?? value.scan_commands_results)
      // sslyze 5 wraps each command as { status, result, error_reason }; sslyze 3 and 4 give the result itself.
      const result = (command: string): JsonRecord | null => {
        const entry = results[command]
        if (!isRecord(entry)) return null
        if ('status' in entry && ('result' in entry || 'error_reason' in entry)) {
          return isRecord(entry.result) ? entry.result : null
        }
        return entry
      }
      for (const [command, entry] of Object.entries(results))
        if (isRecord(entry) && entry.status === 'ERROR')
          notes.warn(path, `${label}: ${command} failed (${text(entry.error_reason, 200) ?? 'no reason given'})`)
      for (const [command, error] of Object.entries(record(value.scan_commands_errors)))
        notes.warn(path, `${label}: ${command} failed (${text(record(error).reason, 200) ?? 'no reason given'})`)

      const add = (f: Omit<ParsedFinding, 'target' | 'raw'> & { raw?: Record<string, unknown> }) => {
        if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, path, 'findings')) return
        tally(statistics, `severity:${f.severity}`)
        findings.push({
          ...f,
          ruleId: `sslyze:${f.ruleId}`,
          target: { kind: 'host', host, ...(ip ? { ip } : {}), ...(port !== undefined ? { port } : {}), protocol: 'tcp' },
          raw: fitRaw({ ...f.raw, ...sniRaw }),
        })
      }

      const accepted: { suite: JsonRecord; protocol: string }[] = []
      for (const protocol of PROTOCOLS) {
        const scan = result(protocol.command)
        const suites = list(scan?.accepted_cipher_suites).map((s) => record(record(s).cipher_suite))
        statistics.ciphersAccepted! += suites.length
        for (const suite of suites) accepted.push({ suite, protocol: protocol.name })
        const offered = suites.length > 0 || scan?.is_tls_version_supported === true
        if (offered && protocol.severity)
          add({ ruleId: protocol.id, title: `${protocol.name} offered`, severity: protocol.severity, evidence: `${protocol.name} offered` })
      }
      for (const [strength, rating] of Object.entries(CIPHER_STRENGTHS)) {
        const names = unique(
          accepted
            .filter(({ suite }) => strengthOf(suite) === strength)
            .map(
              ({ suite, protocol }) =>
                `${text(suite.name, 200) ?? text(suite.openssl_name, 200) ?? '?'} (${protocol}, ${num(suite.key_size) ?? '?'} bits)`,
            ),
        )
        if (names.length === 0) continue
        add({
          ruleId: `cipher-${strength}`,
          title: `${names.length} ${rating.name} accepted`,
          severity: rating.severity,
          cwe: ['CWE-327'],
          ...(strength === 'medium' ? { cve: ['CVE-2016-2183'] } : {}),
          evidence: bounded(names.join('\n'), PARSE_LIMITS.maxEvidenceChars),
          raw: { ciphers: names.slice(0, 100) },
        })
      }

      if (result('heartbleed')?.is_vulnerable_to_heartbleed === true)
        add({
          ruleId: 'heartbleed',
          title: 'Heartbleed: the server leaks memory through TLS heartbeats',
          severity: 'high',
          cve: ['CVE-2014-0160'],
          cwe: ['CWE-119'],
          evidence: 'is_vulnerable_to_heartbleed: true',
        })
      if (result('openssl_ccs_injection')?.is_vulnerable_to_ccs_injection === true)
        add({
          ruleId: 'ccs-injection',
          title: 'OpenSSL CCS injection: the session keys can be forced weak',
          severity: 'high',
          cve: ['CVE-2014-0224'],
          cwe: ['CWE-326'],
          evidence: 'is_vulnerable_to_ccs_injection: true',
        })
      const robot = text(result('robot')?.robot_result, 60) ?? ''
      if (robot.startsWith('VULNERABLE'))
        add({
          ruleId: 'robot',
          title: `ROBOT: RSA decryption oracle (${robot === 'VULNERABLE_STRONG_ORACLE' ? 'strong' : 'weak'} oracle)`,
          severity: robot === 'VULNERABLE_STRONG_ORACLE' ? 'high' : 'medium',
          cve: ['CVE-2017-13099'],
          cwe: ['CWE-203'],
          evidence: `robot_result: ${robot}`,
        })
      const renegotiation = result('session_renegotiation')
      if (renegotiation?.supports_secure_renegotiation === false)
        add({
          ruleId: 'insecure-renegotiation',
          title: 'Insecure renegotiation: the server does not support secure renegotiation',
          severity: 'medium',
          cve: ['CVE-2009-3555'],
          evidence: 'supports_secure_renegotiation: false',
        })
      if (renegotiation?.accepts_client_renegotiation === true || renegotiation?.is_vulnerable_to_client_renegotiation_dos === true)
        add({
          ruleId: 'client-renegotiation',
          title: 'Client-initiated renegotiation accepted (denial of service)',
          severity: 'low',
          cwe: ['CWE-400'],
          evidence: 'client-initiated renegotiation accepted',
        })
      if (result('tls_compression')?.supports_compression === true)
        add({
          ruleId: 'compression',
          title: 'TLS compression enabled (CRIME)',
          severity: 'medium',
          cve: ['CVE-2012-4929'],
          evidence: 'supports_compression: true',
        })
      if (result('tls_fallback_scsv')?.supports_fallback_scsv === false)
        add({
          ruleId: 'fallback-scsv',
          title: 'TLS_FALLBACK_SCSV not supported: protocol downgrades are not prevented',
          severity: 'low',
          evidence: 'supports_fallback_scsv: false',
        })
      if (result('tls_1_3_early_data')?.supports_early_data === true)
        add({
          ruleId: 'early-data',
          title: 'TLS 1.3 early data accepted (replayable requests)',
          severity: 'low',
          cwe: ['CWE-294'],
          evidence: 'supports_early_data: true',
        })

      const certificates = result('certificate_info')
      for (const [index, deployment] of list(certificates?.certificate_deployments).map(record).entries()) {
        const leaf = record(list(deployment.received_certificate_chain)[0])
        const subject = nameOf(leaf.subject)
        const issuer = nameOf(leaf.issuer)
        const notAfterText = text(leaf.not_valid_after ?? leaf.notAfter, 40)
        // sslyze writes certificate dates without a zone: they are UTC.
        const notAfter = notAfterText ? epochMs(/[zZ]|[+-]\d\d:\d\d$/.test(notAfterText) ? notAfterText : `${notAfterText}Z`) : null
        const key = record(leaf.public_key ?? leaf.publicKey)
        const keyBits = num(key.key_size ?? key.size)
        const keyType = /RSA/i.test(text(key.algorithm) ?? '')
          ? 'RSA'
          : /EllipticCurve|EC/i.test(text(key.algorithm) ?? '')
            ? 'EC'
            : /DSA/i.test(text(key.algorithm) ?? '')
              ? 'DSA'
              : ''
        const signature = text(record(leaf.signature_hash_algorithm).name, 40) ?? text(leaf.signatureAlgorithm, 40) ?? ''
        const about = bounded(
          [subject && `subject ${subject}`, issuer && `issuer ${issuer}`, notAfterText && `valid until ${notAfterText}`]
            .filter(Boolean)
            .join(', '),
          2_000,
        )
        const validations = list(deployment.path_validation_results).map(record)
        const trusted = validations.filter(
          (v) => list(v.verified_certificate_chain).length > 0 && !v.validation_error && !v.openssl_error_string,
        )
        const certRaw = { deployment: index }
        if (deployment.leaf_certificate_subject_matches_hostname === false)
          add({
            ruleId: 'certificate-hostname-mismatch',
            title: `The server certificate does not name ${host}`,
            severity: 'medium',
            cwe: ['CWE-297'],
            evidence: about,
            raw: certRaw,
          })
        if (validations.length > 0 && trusted.length === 0) {
          const errors = unique(
            validations
              .map((v) => text(v.openssl_error_string, 300) ?? text(record(v.validation_error).openssl_error_string, 300) ?? '')
              .filter(Boolean),
          )
          add({
            ruleId: 'certificate-untrusted',
            title: 'The server certificate is not trusted by any trust store',
            severity: 'medium',
            cwe: ['CWE-295'],
            evidence: bounded([about, ...errors].join('\n'), 2_000),
            raw: { ...certRaw, trustStores: validations.map((v) => text(record(v.trust_store).name, 100)).filter(Boolean) },
          })
        }
        if (scanDate !== null && notAfter !== null && notAfter < scanDate)
          add({
            ruleId: 'certificate-expired',
            title: 'The server certificate has expired',
            severity: 'high',
            evidence: about,
            raw: certRaw,
          })
        if (deployment.verified_chain_has_sha1_signature === true || /^(sha1|md5)$/i.test(signature))
          add({
            ruleId: 'certificate-weak-signature',
            title: 'The certificate chain is signed with SHA-1 or MD5',
            severity: 'medium',
            cwe: ['CWE-328'],
            evidence: about,
            raw: certRaw,
          })
        if (keyBits !== undefined && ((/^(RSA|DSA)$/.test(keyType) && keyBits < 2048) || (keyType === 'EC' && keyBits < 224)))
          add({
            ruleId: 'certificate-weak-key',
            title: `The server certificate's ${keyType} key has ${keyBits} bits`,
            severity: 'medium',
            cwe: ['CWE-326'],
            evidence: about,
            raw: certRaw,
          })
        if (!subject || !underLimit(assets.length, PARSE_LIMITS.assets, notes, path, 'assets')) continue
        const altNames = list(
          record(leaf.subject_alternative_name ?? leaf.subjectAlternativeName).dns ?? record(leaf.subjectAlternativeName).DNS,
        )
          .map((n) => text(n, 300))
          .filter(Boolean)
        assets.push({
          type: 'certificate',
          value: bounded(text(commonName(leaf.subject), 300) ?? subject, 1_000),
          parent: host,
          notAfter,
          ...(issuer ? { issuer } : {}),
          raw: fitRaw({
            subject,
            ...(signature ? { signatureHash: signature } : {}),
            ...(keyType ? { key: `${keyType}${keyBits !== undefined ? ` ${keyBits}` : ''}` } : {}),
            ...(altNames.length > 0 ? { altNames: altNames.slice(0, 100) } : {}),
            ...(text(leaf.fingerprint_sha256, 100) ? { sha256: text(leaf.fingerprint_sha256, 100) } : {}),
            ...(trusted.length > 0 ? { trustedBy: trusted.map((v) => text(record(v.trust_store).name, 100)).filter(Boolean) } : {}),
          }),
        })
      }
    }

    const paths = [
      '$.date_scans_started',
      '$.date_scans_completed',
      '$.server_scan_results.*',
      '$.server_connectivity_errors.*',
      '$.sslyze_version',
      '$.total_scan_time',
    ]
    for await (const { value, path } of streamJsonValues(input, { formatLabel: LABEL, paths })) {
      if (path.startsWith('$.server_scan_results[')) {
        seenResults = true
        readServer(value, path)
      } else if (path.startsWith('$.server_connectivity_errors[')) {
        const error = record(value)
        statistics.unreachable!++
        const where = text(error.server_string, 300) ?? text(record(error.server_info).hostname, 300) ?? 'a server'
        notes.skip(path, `${where}: not reached (${text(error.error_message ?? error.error_trace, 300) ?? 'no reason given'})`)
        if (text(error.server_string, 300)) targets.push(text(error.server_string, 300)!)
      } else {
        header[path.slice(2)] = value
        if (path === '$.date_scans_completed' || path === '$.date_scans_started') scanDate = epochMs(`${text(value, 40)}Z`) ?? scanDate
      }
    }
    if (!seenResults && header.sslyze_version === undefined)
      throw new ScanParseError(LABEL, 'file', 'no server_scan_results: not an sslyze report')

    const started = epochMs(header.date_scans_started ? `${text(header.date_scans_started, 40)}Z` : undefined)
    const completed = epochMs(header.date_scans_completed ? `${text(header.date_scans_completed, 40)}Z` : undefined)
    const scan: ParsedScan = {
      format: 'sslyze_json',
      tool: { name: 'sslyze', version: text(header.sslyze_version, 40) ?? '' },
      startedAt: started,
      finishedAt: completed,
      targets: unique(targets).slice(0, 10_000),
      findings,
      assets,
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
