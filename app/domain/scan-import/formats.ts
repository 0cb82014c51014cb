// The scanner formats the product reads, and which one a file is: decided from its content, never
// from its name. The order matters where formats look alike: the more specific ones come first.
import type { ServiceId } from '../services.ts'
import { burpXmlParser } from './burp-xml.ts'
import { acunetixXmlParser } from './acunetix-xml.ts'
import { wapitiXmlParser } from './wapiti-xml.ts'
import { masscanJsonParser, masscanXmlParser } from './masscan.ts'
import { nessusXmlParser } from './nessus-xml.ts'
import { niktoJsonParser, niktoXmlParser } from './nikto.ts'
import { nmapGrepableParser } from './nmap-grepable.ts'
import { nmapXmlParser } from './nmap-xml.ts'
import { openvasXmlParser } from './openvas-xml.ts'
import { zapXmlParser } from './zap-xml.ts'
import { sslscanXmlParser } from './sslscan-xml.ts'
import { qualysXmlParser } from './qualys-xml.ts'
import { nexposeXmlParser } from './nexpose-xml.ts'
import { pingcastleXmlParser } from './pingcastle-xml.ts'
import { SNIFF_CHARS, type ScanFormat, type ScanParser } from './parsed-scan.ts'
import { ntdsPotfileParser } from './password-audit-import.ts'
import { httpxJsonlParser } from './httpx-jsonl.ts'
import { naabuJsonlParser } from './naabu-jsonl.ts'
import { nucleiJsonParser } from './nuclei-json.ts'
import { prowlerCsvParser, prowlerOcsfParser } from './prowler.ts'
import { sarifParser } from './sarif.ts'
import { testsslJsonParser } from './testssl-json.ts'
import { testsslCsvParser } from './testssl-csv.ts'
import { sslyzeJsonParser } from './sslyze-json.ts'
import { trivyJsonParser } from './trivy-json.ts'
import { grypeJsonParser } from './grype-json.ts'
import { checkovJsonParser } from './checkov-json.ts'
import { kubeBenchJsonParser } from './kube-bench-json.ts'
import { scoutsuiteParser } from './scoutsuite.ts'
import { kubeHunterJsonParser } from './kube-hunter-json.ts'
import { zapJsonParser } from './zap-json.ts'
import { wapitiJsonParser } from './wapiti-json.ts'
import { arachniJsonParser } from './arachni-json.ts'

export const SCAN_PARSERS: readonly ScanParser[] = [
  // One line per parser.
  nmapXmlParser,
  masscanXmlParser,
  nessusXmlParser,
  openvasXmlParser,
  zapXmlParser,
  burpXmlParser,
  acunetixXmlParser,
  wapitiXmlParser,
  niktoXmlParser,
  sslscanXmlParser,
  qualysXmlParser,
  nexposeXmlParser,
  pingcastleXmlParser,
  zapJsonParser,
  wapitiJsonParser,
  arachniJsonParser,
  nucleiJsonParser,
  prowlerOcsfParser,
  prowlerCsvParser,
  testsslJsonParser,
  testsslCsvParser,
  sslyzeJsonParser,
  niktoJsonParser,
  trivyJsonParser,
  grypeJsonParser,
  checkovJsonParser,
  kubeBenchJsonParser,
  scoutsuiteParser,
  kubeHunterJsonParser,
  masscanJsonParser, // before naabu: masscan's -oD lines also start with an ip and a port
  httpxJsonlParser,
  naabuJsonlParser,
  sarifParser,
  nmapGrepableParser,
  ntdsPotfileParser,
]

export const parserFor = (format: ScanFormat): ScanParser | undefined => SCAN_PARSERS.find((p) => p.format === format)

/** The format of a file from its first characters, or null when no parser knows it. */
export function detectFormat(head: string): ScanParser | null {
  const start = head.slice(0, SNIFF_CHARS).replace(/^\uFEFF/, '')
  return SCAN_PARSERS.find((parser) => parser.sniff(start)) ?? null
}

/** The formats a service's page accepts. */
export const formatsForService = (service: ServiceId): ScanParser[] => SCAN_PARSERS.filter((p) => p.services.includes(service))
