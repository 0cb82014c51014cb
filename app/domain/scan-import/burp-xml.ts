// Burp Suite's XML issues export (Report selected issues → XML, Burp 1.6 to 2024), with requests and
// responses in base64 or as text: one finding per issue at its URL and insertion point ("/login
// [password parameter]"), rated by Burp's severity with its confidence kept; the issue type is the
// rule. The first request and response are decoded and kept (bounded), the others counted; Burp
// Collaborator interactions are kept raw. Read one issue at a time.
import type { Severity } from '../template-vocabulary.ts'
import { cveIds, stripHtml } from './json-fields.ts'
import { PARSE_LIMITS, ScanParseError, bounded, type ParsedFinding, type ParsedScan, type ScanParser } from './parsed-scan.ts'
import { fitRaw } from './raw-fields.ts'
import { ScanCollector, unique } from './scan-collector.ts'
import { child, childrenNamed, readXml, textOf, xmlRootTag, type XmlNode } from './xml-stream.ts'

const LABEL = 'Burp Suite XML'

/** A request or response is one base64 text in the file; large responses (a script bundle) run to megabytes. */
export const BURP_MAX_RUN_CHARS = 16 * 1_048_576

const SEVERITY: Record<string, Severity> = { high: 'high', medium: 'medium', low: 'low', information: 'info', info: 'info' }

/** The type Burp gives every issue an extension raises (Vulners, Additional Scanner Checks ...): such issues are told apart by name. */
const EXTENSION_ISSUE = '134217728'

/** The rule id of a Burp issue type, named as Burp's so that it never meets another scanner's numbers. */
export const burpRuleId = (type: string, name = '') =>
  type === EXTENSION_ISSUE && name ? `burp:extension:${bounded(name.trim(), 200)}` : `burp:${type}`

/** "/login.jsp [password parameter]" and "[password JSON parameter]" → "password"; "[b_id cookie]" and "[User-Agent HTTP header]" stay as they are. */
export function insertionPoint(location: string): string | undefined {
  const inBrackets = /\[([^\]]+)\]\s*$/.exec(location)?.[1]?.trim()
  if (!inBrackets) return undefined
  return inBrackets.replace(/ (?:JSON |XML |multipart |body |URL )?parameter$/, '') || undefined
}

/** Decodes a base64 message to text, only as much of it as is kept. */
function decodeBase64(text: string, keep: number): string {
  const clean = text.replace(/[^A-Za-z0-9+/=]/g, '')
  const needed = Math.ceil(keep / 3) * 4 + 4
  const slice = clean.slice(0, Math.min(clean.length, needed))
  const usable = slice.slice(0, slice.length - (slice.length % 4))
  try {
    const binary = atob(usable)
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
    return new TextDecoder('utf-8').decode(bytes)
  } catch {
    return ''
  }
}

function messageOf(node: XmlNode | undefined): string | undefined {
  if (!node) return undefined
  const raw = node.text
  const text = node.attributes.base64 === 'true' ? decodeBase64(raw, PARSE_LIMITS.maxEvidenceChars) : raw
  const trimmed = text.replace(/\r\n/g, '\n').trim()
  return trimmed ? bounded(trimmed, PARSE_LIMITS.maxEvidenceChars) : undefined
}

/** The addresses of a fragment's links (<a href="…">). */
const hrefs = (html: string) => unique([...html.matchAll(/href\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1] ?? '').filter(Boolean))

const cwesOf = (html: string) =>
  unique([...html.matchAll(/CWE-(\d{1,6})/gi)].map((m) => `CWE-${Number(m[1])}`).filter((c) => c !== 'CWE-0')).slice(0, 20)

const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 }
/** The offsets (minutes east of UTC) of the zone names Burp's export time is written with; another zone reads as unknown. */
const ZONES: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  WET: 0,
  BST: 60,
  WEST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  IST: 330,
  WIB: 420,
  SGT: 480,
  HKT: 480,
  JST: 540,
  KST: 540,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
}

/** "Sat Sep 13 22:39:44 CEST 2014" (Java's Date.toString) as epoch ms; null for a zone it does not know. */
export function fromJavaDate(text: string | undefined): number | null {
  const match = /^\w{3} (\w{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\w+) (\d{4})$/.exec(text?.trim() ?? '')
  if (!match) return null
  const [, month, day, hour, minute, second, zone, year] = match
  const offset = ZONES[zone ?? '']
  const monthIndex = MONTHS[month ?? '']
  if (offset === undefined || monthIndex === undefined) return null
  return Date.UTC(Number(year), monthIndex, Number(day), Number(hour), Number(minute), Number(second)) - offset * 60_000
}

/** An issue's URL from its host ("https://example.com", maybe with a port) and path. */
function urlOf(host: string, path: string): string {
  const base = host.replace(/\/+$/, '')
  return `${base}${path.startsWith('/') ? path : `/${path}`}`
}

export async function parseBurpXml(source: AsyncIterable<string>): Promise<ParsedScan> {
  const collector = new ScanCollector()
  const statistics = { issues: 0, requestResponses: 0, collaboratorEvents: 0, falsePositives: 0 }
  const tool = { name: 'Burp Suite', version: '' }
  let finishedAt: number | null = null
  const hosts = new Map<string, { ip: string; url: URL | null }>()

  const readIssue = (issue: XmlNode) => {
    statistics.issues++
    const where = `line ${issue.line}`
    const type = textOf(issue, 'type')
    const title = textOf(issue, 'name')
    const hostNode = child(issue, 'host')
    const host = textOf(hostNode)
    const path = textOf(issue, 'path')
    const severityText = textOf(issue, 'severity')
    if (!type || !host) {
      collector.note('skipped', where, `${bounded(title, 200) || 'an issue'}: no issue type or host`)
      return
    }
    if (/^false positive$/i.test(severityText)) {
      statistics.falsePositives++
      collector.note('skipped', where, `${bounded(title, 200)}: marked a false positive in Burp`)
      return
    }
    const severity = SEVERITY[severityText.toLowerCase()]
    if (!severity) collector.note('warning', where, `${bounded(title, 200)}: severity ${JSON.stringify(severityText)} read as info`)
    const ip = hostNode?.attributes.ip ?? ''
    if (!hosts.has(host)) {
      let url: URL | null = null
      try {
        url = new URL(host)
      } catch {
        url = null
      }
      hosts.set(host, { ip, url })
    }
    const location = textOf(issue, 'location')
    const parameter = insertionPoint(location)
    const pairs = childrenNamed(issue, 'requestresponse')
    statistics.requestResponses += pairs.length
    const first = pairs[0]
    const method = child(first, 'request')?.attributes.method || 'GET'
    const request = messageOf(child(first, 'request'))
    const response = messageOf(child(first, 'response'))
    const detailHtml = textOf(issue, 'issueDetail')
    const detail = stripHtml(detailHtml)
    const background = stripHtml(textOf(issue, 'issueBackground'))
    const remediation = [stripHtml(textOf(issue, 'remediationDetail')), stripHtml(textOf(issue, 'remediationBackground'))]
      .filter(Boolean)
      .join('\n\n')
    const classifications = textOf(issue, 'vulnerabilityClassifications')
    const items = childrenNamed(child(issue, 'issueDetailItems'), 'issueDetailItem')
      .map((i) => textOf(i))
      .filter(Boolean)
    const references = unique([...hrefs(textOf(issue, 'references')), ...hrefs(classifications)])
      .slice(0, 50)
      .map((r) => bounded(r, 2_048))
    const collaborator = childrenNamed(issue, 'collaboratorEvent').map((event) => ({
      interactionType: bounded(textOf(event, 'interactionType'), 100),
      originIp: bounded(textOf(event, 'originIp'), 100),
      time: bounded(textOf(event, 'time'), 100),
      ...(textOf(event, 'lookupType') ? { lookupType: bounded(textOf(event, 'lookupType'), 100) } : {}),
      ...(textOf(event, 'lookupHost') ? { lookupHost: bounded(textOf(event, 'lookupHost'), 500) } : {}),
    }))
    statistics.collaboratorEvents += collaborator.length
    const cve = cveIds([detailHtml, title], 200)
    const cwe = cwesOf(classifications)
    // What Burp picked out of the response (an address, a field name); the request and response prove the rest.
    const evidence = items.join('\n')
    const finding: ParsedFinding = {
      ruleId: burpRuleId(type, title),
      title: bounded(title || burpRuleId(type), 500),
      severity: severity ?? 'info',
      target: {
        kind: 'url',
        url: bounded(urlOf(host, path || '/'), 2_048),
        method,
        ...(parameter ? { parameter: bounded(parameter, 500) } : {}),
      },
      ...(cwe.length > 0 ? { cwe } : {}),
      ...(cve.length > 0 ? { cve } : {}),
      ...(textOf(issue, 'confidence') === 'Tentative' ? { tags: ['tentative'] } : {}),
      ...(detail || background ? { description: bounded([detail, background].filter(Boolean).join('\n\n')) } : {}),
      ...(remediation ? { remediation: bounded(remediation) } : {}),
      ...(references.length > 0 ? { references } : {}),
      ...(evidence ? { evidence: bounded(evidence, PARSE_LIMITS.maxEvidenceChars) } : {}),
      ...(request ? { request } : {}),
      ...(response ? { response } : {}),
      raw: fitRaw({
        issueType: type,
        serialNumber: textOf(issue, 'serialNumber') || null,
        confidence: textOf(issue, 'confidence') || null,
        location: bounded(location, 2_048),
        ...(ip ? { ip: bounded(ip, 100) } : {}),
        ...(pairs.length > 1 ? { requestResponses: pairs.length } : {}),
        ...(textOf(first, 'responseRedirected') === 'true' ? { responseRedirected: true } : {}),
        ...(collaborator.length > 0 ? { collaborator: collaborator.slice(0, 20) } : {}),
      }),
    }
    collector.addFinding(finding)
  }

  await readXml(
    source,
    LABEL,
    {
      root: (root) => {
        if (root.name !== 'issues') throw new ScanParseError(LABEL, `line ${root.line}`, `the root element is <${root.name}>, not <issues>`)
        tool.version = root.attributes.burpVersion ?? ''
        finishedAt = fromJavaDate(root.attributes.exportTime)
      },
      collect: { 'issues/issue': readIssue },
    },
    { maxRunChars: BURP_MAX_RUN_CHARS },
  )

  for (const [host, { ip, url }] of hosts) {
    const value = url?.hostname || host
    const port = url ? Number(url.port) || (url.protocol === 'https:' ? 443 : 80) : undefined
    collector.addAsset({
      type: 'host',
      value: bounded(value, 2_048),
      ...(port ? { ports: [{ port, protocol: 'tcp', service: url?.protocol === 'https:' ? 'https' : 'http' }] } : {}),
      raw: { site: bounded(host, 2_048), ...(ip ? { ip: bounded(ip, 100) } : {}) },
    })
  }

  return {
    format: 'burp_xml',
    tool,
    startedAt: null,
    finishedAt,
    targets: [...hosts.keys()].map((h) => bounded(h, 2_048)),
    findings: collector.findings,
    assets: collector.assets,
    statistics: { ...statistics, findings: collector.findings.length },
    notes: collector.finalNotes(),
  }
}

export const burpXmlParser: ScanParser = {
  format: 'burp_xml',
  label: LABEL,
  services: ['dast'],
  // <issues> is a common word: it counts with Burp's burpVersion, or an issue in Burp's shape.
  sniff: (head) => {
    const root = xmlRootTag(head)
    if (root?.name !== 'issues') return false
    return /\sburpVersion=["']/.test(root.tag) || /<issue>\s*<serialNumber>\d+<\/serialNumber>\s*<type>\d+<\/type>/.test(head)
  },
  parse: parseBurpXml,
}
