// What every scanner parser returns (decision 0017): the format and tool, when the scan ran, the
// findings with the parts that identify them, the assets seen and the parser's own figures, and
// what it skipped or warned about. Service-neutral: one format may feed several services (Nuclei
// feeds DAST and attack surface), and `observed.ts` turns a finding's target into the service's
// fingerprint parts when it is imported into a service.
import type { AssetType } from '../assets.ts'
import type { ServiceScanStats } from '../scans.ts'
import type { ServiceId } from '../services.ts'
import type { Severity } from '../template-vocabulary.ts'

export const SCAN_FORMATS = [
  'nmap_xml',
  'openvas_xml',
  'zap_xml',
  'zap_json',
  'wapiti_json',
  'nuclei_json',
  'prowler_ocsf_json',
  'prowler_csv',
  'testssl_json',
  'httpx_jsonl',
  'naabu_jsonl',
  'sarif',
  'ntds_potfile',
  'nessus_xml',
  'burp_xml',
  'trivy_json',
  'grype_json',
  'masscan_json',
  'masscan_xml',
  'nmap_grepable',
  'nikto_xml',
  'nikto_json',
  'checkov_json',
  'testssl_csv',
  'sslscan_xml',
  'qualys_xml',
  'nexpose_xml',
  'sslyze_json',
  'kube_bench_json',
  'pingcastle_xml',
  'acunetix_xml',
  'scoutsuite_js',
  'kube_hunter_json',
  'arachni_json',
  'wapiti_xml',
] as const
export type ScanFormat = (typeof SCAN_FORMATS)[number]

/** Where a finding is: the parts its service's fingerprint is made of. */
export type FindingTarget =
  | { kind: 'url'; url: string; method?: string; parameter?: string }
  | { kind: 'host'; host: string; ip?: string; port?: number; protocol?: string }
  | { kind: 'cloud'; provider: string; account: string; region: string; cloudService: string; resource: string }
  | { kind: 'account'; domain: string; account: string }

export interface ParsedFinding {
  /** The scanner's rule: ZAP plugin id, Nuclei template id, NVT OID, Nmap script id or CVE, Prowler check id, testssl id. */
  ruleId: string
  /**
   * One check of a rule that makes several (a Nuclei template's matcher: each missing header, each
   * technology). Attack surface, whose identity keeps no details of the location, tells checks apart by it.
   */
  check?: string
  title: string
  severity: Severity
  target: FindingTarget
  cvss?: { version: string; vector: string; score: number }
  cwe?: string[]
  cve?: string[]
  tags?: string[]
  description?: string
  remediation?: string
  references?: string[]
  /** What proves it (a matched string, a script's output, a response excerpt); bounded. */
  evidence?: string
  /** DAST: the request and response of this instance, bounded. */
  request?: string
  response?: string
  /** The format's fields that none of the above holds, kept (bounded) so an import loses nothing. */
  raw: Record<string, unknown>
}

export interface ParsedPort {
  port: number
  protocol: string
  service?: string
  product?: string
  version?: string
}

export interface ParsedAsset {
  type: AssetType
  /** The asset as people name it: a domain, an IP, a host, a masked account, a resource id. */
  value: string
  parent?: string
  ports?: ParsedPort[]
  technologies?: string[]
  /** Certificates: when they stop being valid (epoch ms) and who issued them. */
  notAfter?: number | null
  issuer?: string
  cloud?: { account: string; region: string; cloudService: string }
  /** The format's fields that none of the above holds (an OS guess, script output), bounded. */
  raw?: Record<string, unknown>
  /** Password audit accounts: never the password. */
  account?: {
    masked: string
    cracked: boolean
    length: number | null
    classes: string[]
    patterns: string[]
    privileged: boolean
    reuseCluster: string | null
    reuseCount: number
  }
}

export interface ImportNote {
  level: 'skipped' | 'warning'
  /** Where in the file: "line 120", "/site[2]/alerts/alertitem[4]", "result 31". */
  where: string
  message: string
}

export interface ParsedScan {
  format: ScanFormat
  tool: { name: string; version: string }
  /** Epoch ms, when the file says. */
  startedAt: number | null
  finishedAt: number | null
  /** What was scanned, as the scanner names it (hosts, URLs, accounts, cloud accounts). */
  targets: string[]
  findings: ParsedFinding[]
  assets: ParsedAsset[]
  /** The parser's own counts (hosts up, ports, alerts, results read ...), for the import report. */
  statistics: Record<string, number>
  /** Figures the findings and assets cannot give (cloud checks passed, a password audit's distributions). */
  serviceStats?: ServiceScanStats
  notes: ImportNote[]
}

/** Bounds every parser applies to hostile or huge input. */
export const PARSE_LIMITS = {
  /** Any one string kept from a file. */
  maxFieldChars: 16_384,
  /** Evidence, request and response of one finding. */
  maxEvidenceChars: 8_192,
  /** Nesting of XML elements or JSON values. */
  maxDepth: 64,
  /** One line of a line-based format. */
  maxLineChars: 1_048_576,
  findings: 250_000,
  assets: 250_000,
  /** Notes kept in the import report; more are counted, not kept. */
  notes: 500,
} as const

/** How much of a file's start `sniff` sees. */
export const SNIFF_CHARS = 65_536

/** A file the parser cannot read, with the format and where in the file. */
export class ScanParseError extends Error {
  readonly formatLabel: string
  readonly where: string
  readonly reason: string
  constructor(formatLabel: string, where: string, reason: string) {
    super(`${formatLabel}, ${where}: ${reason}`)
    this.name = 'ScanParseError'
    this.formatLabel = formatLabel
    this.where = where
    this.reason = reason
  }
}

/** A string cut to `max` characters (an ellipsis marks the cut). */
export function bounded(text: string | null | undefined, max: number = PARSE_LIMITS.maxFieldChars): string {
  const value = text ?? ''
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`
}

export interface ScanParser {
  format: ScanFormat
  /** As analysts name it: "Nmap XML", "OWASP ZAP JSON". */
  label: string
  /** The services whose pages accept it. */
  services: readonly ServiceId[]
  /** Whether the start of a file (SNIFF_CHARS decoded) is this format: by content, never by name. */
  sniff(head: string): boolean
  parse(source: AsyncIterable<string>): Promise<ParsedScan>
}
