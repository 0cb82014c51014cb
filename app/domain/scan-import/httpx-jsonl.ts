// httpx's JSON Lines (-json): one probed URL per line. Every line adds to the inventory (the host,
// its resolved IPs, the port with the web server, the technologies, the TLS certificate). Findings
// are raised only where the record itself shows an exposure, by these rules:
// - admin-panel: status 200 and a title naming an administration interface (not a login page alone);
// - directory-listing: status 200 and a title "Index of /…";
// - exposed-git: status 200 for a path inside /.git/ served as something other than HTML;
// - expired-certificate: the certificate's not_after is before the time of the probe.
import type { Severity } from '../template-vocabulary.ts'
import { epochMs, int, isRecord, list, Notes, record, text, texts, underLimit } from './json-fields.ts'
import { jsonLines } from './json-stream.ts'
import { PARSE_LIMITS, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { Inventory } from './surface-assets.ts'

const LABEL = 'httpx JSONL'

const ADMIN_TITLE =
  /\b(admin(istration)?|dashboard|control panel|phpmyadmin|webmin|cpanel|plesk|jenkins|grafana|kibana|portainer|tomcat manager)\b/i

const EXPOSURES: Record<string, { title: string; severity: Severity }> = {
  'admin-panel': { title: 'Administration interface reachable', severity: 'low' },
  'directory-listing': { title: 'Directory listing enabled', severity: 'medium' },
  'exposed-git': { title: 'Git repository files served', severity: 'high' },
  'expired-certificate': { title: 'Expired TLS certificate', severity: 'medium' },
}

export const httpxJsonlParser: ScanParser = {
  format: 'httpx_jsonl',
  label: LABEL,
  services: ['projectmariana'],
  sniff(head) {
    const first = head.trimStart().split('\n', 1)[0] ?? ''
    return (
      /^\{/.test(first) &&
      /"url"\s*:\s*"https?:/.test(first) &&
      /"(status_code|status-code)"\s*:/.test(first) &&
      /"(input|scheme|webserver|tech)"\s*:/.test(first) &&
      !/"template-id"/.test(first)
    )
  },
  async parse(source) {
    const notes = new Notes()
    const findings: ParsedFinding[] = []
    const inventory = new Inventory()
    const targets = new Set<string>()
    let records = 0
    let failed = 0
    let first: number | null = null
    let last: number | null = null
    for await (const { value, line } of jsonLines(source, LABEL)) {
      records++
      const where = `line ${line}`
      if (!isRecord(value)) {
        notes.skip(where, 'the line is not an object')
        continue
      }
      const url = text(value.url)
      let parsed: URL | null = null
      try {
        parsed = url ? new URL(url) : null
      } catch {
        parsed = null
      }
      if (!url || !parsed) {
        notes.skip(where, 'the line has no valid url')
        continue
      }
      if (value.failed === true) {
        failed++
        continue
      }
      const host = parsed.hostname.replace(/^\[|\]$/g, '')
      targets.add(text(value.input) ?? url)
      const port = int(value.port, 1, 65535) ?? int(parsed.port, 1, 65535) ?? (parsed.protocol === 'https:' ? 443 : 80)
      const technologies = texts(value.tech, 50)
      const webserver = text(value.webserver, 200)
      const portInfo = { port, protocol: 'tcp', service: parsed.protocol.replace(':', ''), product: webserver }
      inventory.addName(host, { ports: [portInfo], technologies })
      for (const address of texts(value.a, 20)) if (address !== host) inventory.addName(address, { ports: [portInfo] })
      const at = epochMs(value.timestamp)
      if (at !== null) {
        first = first === null ? at : Math.min(first, at)
        last = last === null ? at : Math.max(last, at)
      }
      const tls = record(value.tls)
      const subject = text(tls.subject_cn, 300) ?? texts(tls.subject_an, 1)[0]
      const notAfter = epochMs(tls.not_after)
      if (subject || notAfter !== null) {
        inventory.add({
          type: 'certificate',
          value: subject ?? host,
          parent: host,
          notAfter,
          issuer: text(tls.issuer_cn, 300) ?? text(tls.issuer_dn, 300),
        })
      }
      const status = int(value.status_code) ?? int(value['status-code'])
      const title = text(value.title, 500)
      const contentType = text(value.content_type, 200) ?? ''
      const raise = (exposure: keyof typeof EXPOSURES, evidence: string) => {
        if (!underLimit(findings.length, PARSE_LIMITS.findings, notes, where, 'findings')) return
        const rule = EXPOSURES[exposure]
        if (!rule) return
        findings.push({
          ruleId: `httpx:${exposure}`,
          title: rule.title,
          severity: rule.severity,
          target: { kind: 'url', url, method: text(value.method, 16) },
          evidence: bounded(evidence, PARSE_LIMITS.maxEvidenceChars),
          tags: technologies,
          raw: { status, title, contentType, webserver, ...(list(value.a).length ? { a: texts(value.a, 20) } : {}) },
        })
      }
      if (status === 200 && title && /^Index of \//i.test(title)) raise('directory-listing', `title: ${title}`)
      else if (status === 200 && title && ADMIN_TITLE.test(title)) raise('admin-panel', `title: ${title}`)
      if (status === 200 && /\/\.git\//.test(parsed.pathname) && !/html/i.test(contentType))
        raise('exposed-git', `${parsed.pathname} answered 200 (${contentType || 'no content type'})`)
      if (notAfter !== null && notAfter < (at ?? Date.now())) raise('expired-certificate', `not after ${new Date(notAfter).toISOString()}`)
    }
    const scan: ParsedScan = {
      format: 'httpx_jsonl',
      tool: { name: 'httpx', version: '' },
      startedAt: first,
      finishedAt: last,
      targets: [...targets],
      findings,
      assets: inventory.list(),
      statistics: { records, failed, findings: findings.length, skipped: notes.skipped, assetsNotKept: inventory.dropped },
      notes: notes.kept,
    }
    return scan
  },
}
