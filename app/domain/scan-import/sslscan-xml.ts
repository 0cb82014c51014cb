// sslscan's XML (`--xml=FILE`, sslscan 1.8 to 2.x): <document title="SSLScan Results"> with one
// <ssltest host port> per target: the protocols offered, renegotiation, compression, TLS fallback
// SCSV, Heartbleed per protocol version, the ciphers accepted with their strength, and the server
// certificate (under <certificates> since 2.0). A weakness is a finding per target (rule id
// sslscan:<check>), weak ciphers grouped by strength with each cipher named; the certificate is an
// asset. Each <ssltest> is read on its own.
import type { Severity } from '../template-vocabulary.ts'
import { Notes, underLimit } from './json-fields.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  bounded,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { child, childrenNamed, numberOf, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'sslscan XML'

/** Protocols offered that are weaknesses, rated as testssl.sh rates them. */
const PROTOCOLS: Record<string, { id: string; name: string; severity: Severity }> = {
  'ssl 2': { id: 'SSLv2', name: 'SSLv2', severity: 'critical' },
  'ssl 3': { id: 'SSLv3', name: 'SSLv3', severity: 'high' },
  'tls 1.0': { id: 'TLS1', name: 'TLS 1.0', severity: 'low' },
  'tls 1.1': { id: 'TLS1_1', name: 'TLS 1.1', severity: 'low' },
}
/** sslscan 1.x writes no <protocol> elements: the protocols are those of the accepted ciphers. */
const CIPHER_PROTOCOLS: Record<string, string> = {
  SSLv2: 'ssl 2',
  SSLv3: 'ssl 3',
  TLSv1: 'tls 1.0',
  'TLSv1.0': 'tls 1.0',
  'TLSv1.1': 'tls 1.1',
}

/** Accepted ciphers of these strengths are findings. */
const CIPHER_STRENGTHS: Record<string, { name: string; severity: Severity }> = {
  null: { name: 'NULL (unencrypted) ciphers', severity: 'high' },
  anonymous: { name: 'anonymous (unauthenticated) ciphers', severity: 'high' },
  weak: { name: 'weak ciphers', severity: 'medium' },
  medium: { name: 'medium-strength ciphers', severity: 'low' },
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** OpenSSL's dates: "Jan  1 17:54:57 2027 GMT". */
function certificateDate(value: string): number | null {
  const match = /^([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)\s+(\d{4})/.exec(value.trim())
  const month = match ? MONTHS.indexOf(match[1]!) : -1
  return match && month >= 0
    ? Date.UTC(Number(match[6]), month, Number(match[2]), Number(match[3]), Number(match[4]), Number(match[5]))
    : null
}

/** The certificate of a target: <certificates><certificate> (2.x) or <certificate> (1.x); the first full one. */
function certificateOf(test: XmlNode): XmlNode | undefined {
  const all = [...childrenNamed(test, 'certificate'), ...childrenNamed(child(test, 'certificates'), 'certificate')]
  return all.find((c) => c.attributes.type !== 'full') ?? all[0]
}

export const sslscanXmlParser: ScanParser = {
  format: 'sslscan_xml',
  label: LABEL,
  services: ['network', 'projectmariana'],
  sniff(head) {
    const root = xmlRootTag(head)
    return root?.name === 'document' && /\btitle\s*=\s*"SSLScan Results"/i.test(root.tag)
  },
  async parse(source) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const assets: ParsedAsset[] = []
    const targets: string[] = []
    const statistics: Record<string, number> = { targets: 0, ciphersAccepted: 0, protocolsOffered: 0 }
    let version = ''

    const finding = (
      where: string,
      test: { host: string; ip?: string; port?: number },
      f: Omit<ParsedFinding, 'target' | 'raw'> & { raw?: Record<string, unknown> },
    ) => {
      if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) return
      findings.push({
        ...f,
        ruleId: `sslscan:${f.ruleId}`,
        target: { kind: 'host', host: test.host, ip: test.ip, port: test.port, protocol: 'tcp' },
        raw: { ...f.raw, where },
      })
    }

    const readTest = (test: XmlNode) => {
      const where = `line ${test.line}`
      statistics.targets!++
      const host = bounded(test.attributes.host?.trim() ?? '', 300)
      if (!host) {
        notes.skip(where, 'the <ssltest> has no host')
        return
      }
      const portNumber = numberOf(test.attributes.port)
      const port =
        portNumber !== undefined && Number.isInteger(portNumber) && portNumber >= 0 && portNumber <= 65535 ? portNumber : undefined
      const sni = test.attributes.sniname?.trim()
      const target = { host, port }
      targets.push(port !== undefined ? `${host}:${port}` : host)
      const sniRaw = sni && sni !== host ? { sniName: bounded(sni, 300) } : {}

      // Protocols: <protocol type="tls" version="1.0" enabled="1"> (2.x), else those of the accepted ciphers (1.x).
      const ciphers = childrenNamed(test, 'cipher').filter((c) => /^(accepted|preferred)$/.test(c.attributes.status ?? ''))
      statistics.ciphersAccepted! += ciphers.length
      const protocolElements = childrenNamed(test, 'protocol')
      const offered = new Set<string>(
        protocolElements.length
          ? protocolElements.filter((p) => p.attributes.enabled === '1').map((p) => `${p.attributes.type} ${p.attributes.version}`)
          : ciphers.map((c) => CIPHER_PROTOCOLS[c.attributes.sslversion ?? ''] ?? c.attributes.sslversion ?? ''),
      )
      statistics.protocolsOffered! += offered.size
      for (const [key, protocol] of Object.entries(PROTOCOLS)) {
        if (!offered.has(key)) continue
        finding(where, target, {
          ruleId: protocol.id,
          title: `${protocol.name} offered`,
          severity: protocol.severity,
          evidence: `${protocol.name} offered`,
          raw: sniRaw,
        })
      }

      const heartbleed = childrenNamed(test, 'heartbleed').filter((h) => h.attributes.vulnerable === '1')
      if (heartbleed.length) {
        const versions = heartbleed.map((h) => h.attributes.sslversion ?? '').filter(Boolean)
        finding(where, target, {
          ruleId: 'heartbleed',
          title: 'Heartbleed: the server leaks memory through TLS heartbeats',
          severity: 'high',
          cve: ['CVE-2014-0160'],
          cwe: ['CWE-119'],
          evidence: bounded(`vulnerable with ${versions.join(', ') || 'a protocol version'}`, 2_000),
          raw: { ...sniRaw, versions: versions.slice(0, 10) },
        })
      }
      const renegotiation = child(test, 'renegotiation')
      if (renegotiation?.attributes.supported === '1' && renegotiation.attributes.secure !== '1')
        finding(where, target, {
          ruleId: 'insecure-renegotiation',
          title: 'Insecure client-initiated renegotiation',
          severity: 'medium',
          cve: ['CVE-2009-3555'],
          evidence: 'renegotiation supported, not secure',
          raw: sniRaw,
        })
      if (child(test, 'compression')?.attributes.supported === '1')
        finding(where, target, {
          ruleId: 'compression',
          title: 'TLS compression enabled (CRIME)',
          severity: 'medium',
          cve: ['CVE-2012-4929'],
          evidence: 'compression supported',
          raw: sniRaw,
        })
      if (child(test, 'fallback')?.attributes.supported === '0')
        finding(where, target, {
          ruleId: 'fallback-scsv',
          title: 'TLS_FALLBACK_SCSV not supported: protocol downgrades are not prevented',
          severity: 'low',
          evidence: 'TLS fallback SCSV not supported',
          raw: sniRaw,
        })

      for (const [strength, rating] of Object.entries(CIPHER_STRENGTHS)) {
        const weak = ciphers.filter((c) => c.attributes.strength === strength)
        if (!weak.length) continue
        const names = [
          ...new Set(
            weak.map(
              (c) =>
                `${c.attributes.cipher ?? c.attributes.id ?? '?'} (${c.attributes.sslversion ?? '?'}, ${c.attributes.bits ?? '?'} bits)`,
            ),
          ),
        ]
        finding(where, target, {
          ruleId: `cipher-${strength}`,
          title: `${names.length} ${rating.name} accepted`,
          severity: rating.severity,
          cwe: ['CWE-327'],
          evidence: bounded(names.join('\n'), PARSE_LIMITS.maxEvidenceChars),
          raw: { ...sniRaw, ciphers: names.slice(0, 100).map((n) => bounded(n, 200)) },
        })
      }

      const certificate = certificateOf(test)
      if (!certificate) return
      const subject = bounded(textOf(certificate, 'subject'), 1_000)
      const issuer = bounded(textOf(certificate, 'issuer'), 1_000)
      const notAfterText = textOf(certificate, 'not-valid-after')
      const notAfter = certificateDate(notAfterText)
      const signature = bounded(textOf(certificate, 'signature-algorithm'), 200)
      const key = child(certificate, 'pk')
      const keyBits = numberOf(key?.attributes.bits)
      const keyType = key?.attributes.type ?? ''
      const altNames = bounded(textOf(certificate, 'altnames'), 4_000)
      const certificateWhere = `line ${certificate.line}`
      const about = bounded(
        [subject && `subject ${subject}`, issuer && `issuer ${issuer}`, notAfterText && `valid until ${notAfterText}`]
          .filter(Boolean)
          .join(', '),
        2_000,
      )
      if (textOf(certificate, 'expired') === 'true')
        finding(certificateWhere, target, {
          ruleId: 'certificate-expired',
          title: 'The server certificate has expired',
          severity: 'high',
          evidence: about,
          raw: sniRaw,
        })
      if (textOf(certificate, 'self-signed') === 'true')
        finding(certificateWhere, target, {
          ruleId: 'certificate-self-signed',
          title: 'The server certificate is self-signed',
          severity: 'medium',
          cwe: ['CWE-295'],
          evidence: about,
          raw: sniRaw,
        })
      if (/md5|sha1With/i.test(signature))
        finding(certificateWhere, target, {
          ruleId: 'certificate-weak-signature',
          title: `The server certificate is signed with ${signature}`,
          severity: 'medium',
          cwe: ['CWE-328'],
          evidence: about,
          raw: sniRaw,
        })
      if (keyBits !== undefined && ((/^(RSA|DSA)$/i.test(keyType) && keyBits < 2048) || (/^EC$/i.test(keyType) && keyBits < 224)))
        finding(certificateWhere, target, {
          ruleId: 'certificate-weak-key',
          title: `The server certificate's ${keyType} key has ${keyBits} bits`,
          severity: 'medium',
          cwe: ['CWE-326'],
          evidence: about,
          raw: sniRaw,
        })
      if (!underLimit(assets.length, PARSE_LIMITS.assets, notes, certificateWhere, 'assets')) return
      assets.push({
        type: 'certificate',
        value: subject || host,
        parent: host,
        notAfter,
        issuer: issuer || undefined,
        raw: {
          ...(signature ? { signatureAlgorithm: signature } : {}),
          ...(keyType ? { key: `${keyType}${keyBits !== undefined ? ` ${keyBits}` : ''}` } : {}),
          ...(altNames ? { altNames } : {}),
        },
      })
    }

    await readXml(source, LABEL, {
      root: (root) => {
        if (root.name !== 'document')
          throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not sslscan's <document>`)
        version = bounded(root.attributes.version?.trim() ?? '', 40)
      },
      collect: { 'document/ssltest': readTest },
    })

    const scan: ParsedScan = {
      format: 'sslscan_xml',
      tool: { name: 'sslscan', version },
      startedAt: null,
      finishedAt: null,
      targets: [...new Set(targets)],
      findings,
      assets,
      statistics: { ...statistics, findings: findings.length, skipped: notes.skipped, notesNotKept: notes.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
