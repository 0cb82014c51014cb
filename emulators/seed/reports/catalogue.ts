// What the demo scanners report: rules per service, taken from the demo template library (so the
// findings carry a template's text) plus scanner rules without a template, with real-looking ids.
import type { FindingTemplate } from '#domain/finding-template.ts'
import type { ServiceId } from '#domain/services.ts'
import type { Severity } from '#domain/template-vocabulary.ts'
import { DEMO_FINDING_TEMPLATES } from '../finding-templates.ts'

export interface Rule {
  ruleId: string
  title: string
  severity: Severity
  template?: FindingTemplate
}

/** How often a service's scanners report each severity: most findings are informational or low. */
export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 2, high: 8, medium: 22, low: 33, info: 35 }

export const templatesFor = (service: ServiceId) => DEMO_FINDING_TEMPLATES.filter((t) => t.services.includes(service))

export const fromTemplate = (template: FindingTemplate, ruleId: string): Rule => ({
  ruleId,
  title: template.title,
  severity: template.severity,
  template,
})

// ZAP plugin ids of the rules the DAST templates describe.
export const ZAP_RULE_IDS: Record<string, string> = {
  'sql-injection-error-based': 'zap:40018',
  'sql-injection-blind-time-based': 'zap:40027',
  'os-command-injection': 'zap:90020',
  'server-side-template-injection': 'zap:90035',
  'xml-external-entity-injection': 'zap:90023',
  'reflected-cross-site-scripting': 'zap:40012',
  'stored-cross-site-scripting': 'zap:40014',
  'dom-based-cross-site-scripting': 'zap:40026',
  'cross-site-request-forgery': 'zap:10202',
  'server-side-request-forgery': 'zap:40046',
  'path-traversal-file-download': 'zap:6',
  'local-file-inclusion': 'zap:7',
  'log4shell-jndi-lookup': 'zap:40043',
  'cookie-missing-secure-flag': 'zap:10011',
  'cookie-missing-httponly-flag': 'zap:10010',
  'cookie-samesite-none': 'zap:10054',
  'missing-content-security-policy': 'zap:10038',
  'missing-hsts-header': 'zap:10035',
  'clickjacking-missing-frame-protection': 'zap:10020',
  'missing-x-content-type-options': 'zap:10021',
  'cors-wildcard-with-credentials': 'zap:40040',
  'open-redirect': 'zap:10028',
  'verbose-error-stack-trace': 'zap:90022',
  'javascript-source-maps-exposed': 'zap:10115',
  'vulnerable-javascript-library': 'zap:10003',
  'http-trace-method-enabled': 'zap:90028',
  'password-field-autocomplete': 'zap:10012',
  'mixed-content': 'zap:10040',
  'sensitive-data-in-url': 'zap:10024',
  'crlf-injection-response-splitting': 'zap:40003',
  'third-party-script-without-sri': 'zap:90003',
  'referrer-policy-leaks-tokens': 'zap:10024-2',
}

/** ZAP and Nuclei rules the library has no template for: they keep the scanner's wording. */
export const DAST_RAW_RULES: readonly Rule[] = [
  { ruleId: 'zap:10036', title: 'Server Leaks Version Information via "Server" HTTP Response Header Field', severity: 'low' },
  { ruleId: 'zap:10037', title: 'Server Leaks Information via "X-Powered-By" HTTP Response Header Field(s)', severity: 'low' },
  { ruleId: 'zap:10096', title: 'Timestamp Disclosure - Unix', severity: 'info' },
  { ruleId: 'zap:10027', title: 'Information Disclosure - Suspicious Comments', severity: 'info' },
  { ruleId: 'zap:10098', title: 'Cross-Domain Misconfiguration', severity: 'medium' },
  { ruleId: 'zap:10015', title: 'Re-examine Cache-control Directives', severity: 'info' },
  { ruleId: 'zap:10049', title: 'Storable and Cacheable Content', severity: 'info' },
  { ruleId: 'zap:10109', title: 'Modern Web Application', severity: 'info' },
  { ruleId: 'zap:10017', title: 'Cross-Domain JavaScript Source File Inclusion', severity: 'low' },
  { ruleId: 'zap:10063', title: 'Permissions Policy Header Not Set', severity: 'low' },
  { ruleId: 'zap:90004', title: 'Insufficient Site Isolation Against Spectre Vulnerability', severity: 'low' },
  { ruleId: 'zap:10104', title: 'User Agent Fuzzer', severity: 'info' },
  { ruleId: 'nuclei:tech-detect', title: 'Wappalyzer Technology Detection', severity: 'info' },
  { ruleId: 'nuclei:http-missing-security-headers', title: 'HTTP Missing Security Headers', severity: 'info' },
  { ruleId: 'nuclei:exposed-swagger-api', title: 'Public Swagger API - Detect', severity: 'info' },
  { ruleId: 'nuclei:CVE-2023-46604', title: 'Apache ActiveMQ - Remote Code Execution', severity: 'critical' },
]

/** OWASP Top 10 (2021) category of a DAST rule, from its words. */
export function owaspCategory(rule: Rule): string {
  const text = `${rule.template?.slug ?? ''} ${rule.title}`.toLowerCase()
  const table: [RegExp, string][] = [
    [/ssrf|server-side-request/, 'A10 Server-Side Request Forgery'],
    [/injection|scripting|xss|traversal|inclusion|crlf|formula/, 'A03 Injection'],
    [/idor|authori[sz]ation|mass-assignment|cors|redirect|access|cross-domain|csrf|request-forgery/, 'A01 Broken Access Control'],
    [/session|jwt|mfa|password|login|username|oauth|enumeration|authentication/, 'A07 Identification and Authentication Failures'],
    [/library|log4|deprecated|activemq|cve-|version/, 'A06 Vulnerable and Outdated Components'],
    [/deserial|sri|upload|integrity/, 'A08 Software and Data Integrity Failures'],
    [/cleartext|sensitive-data|mixed-content|hsts|secure-flag/, 'A02 Cryptographic Failures'],
    [/audit-log|log-/, 'A09 Security Logging and Monitoring Failures'],
    [
      /header|cookie|policy|clickjacking|debug|verbose|trace|cache|source-maps|disclosure|swagger|introspection|isolation/,
      'A05 Security Misconfiguration',
    ],
  ]
  return table.find(([re]) => re.test(text))?.[1] ?? 'A04 Insecure Design'
}

/** Network rules: the port they concern and the kind of host they show on. */
export interface NetworkRule extends Rule {
  port: number | null
  protocol: 'tcp' | 'udp'
  profiles: readonly HostProfile[]
}

export const HOST_PROFILES = ['windows', 'dc', 'linux', 'printer', 'netdev', 'bmc', 'db', 'web'] as const
export type HostProfile = (typeof HOST_PROFILES)[number]

export const PROFILE_PORTS: Record<HostProfile, readonly [number, string, string][]> = {
  windows: [
    [135, 'msrpc', 'Microsoft Windows RPC'],
    [139, 'netbios-ssn', 'Microsoft Windows netbios-ssn'],
    [445, 'microsoft-ds', 'Microsoft Windows Server 2016 microsoft-ds'],
    [3389, 'ms-wbt-server', 'Microsoft Terminal Services'],
    [5985, 'http', 'Microsoft HTTPAPI httpd 2.0'],
  ],
  dc: [
    [53, 'domain', 'Simple DNS Plus'],
    [88, 'kerberos-sec', 'Microsoft Windows Kerberos'],
    [135, 'msrpc', 'Microsoft Windows RPC'],
    [389, 'ldap', 'Microsoft Windows Active Directory LDAP'],
    [445, 'microsoft-ds', 'Microsoft Windows Server 2019 microsoft-ds'],
    [636, 'ldapssl', 'Microsoft Windows Active Directory LDAP'],
    [3268, 'globalcatLDAP', 'Microsoft Windows Active Directory LDAP'],
  ],
  linux: [
    [22, 'ssh', 'OpenSSH 8.9p1 Ubuntu 3ubuntu0.6'],
    [111, 'rpcbind', 'rpcbind 2-4'],
    [2049, 'nfs', 'nfs 3-4'],
  ],
  printer: [
    [80, 'http', 'HP LaserJet httpd'],
    [443, 'https', 'HP LaserJet httpd'],
    [631, 'ipp', 'CUPS 2.4'],
    [9100, 'jetdirect', 'HP JetDirect'],
  ],
  netdev: [
    [22, 'ssh', 'Cisco SSH 1.25'],
    [23, 'telnet', 'Cisco router telnetd'],
    [443, 'https', 'Cisco IOS http config'],
    [4786, 'smart-install', 'Cisco Smart Install'],
  ],
  bmc: [
    [443, 'https', 'HPE Integrated Lights-Out 5'],
    [623, 'asf-rmcp', 'IPMI 2.0'],
  ],
  db: [
    [1433, 'ms-sql-s', 'Microsoft SQL Server 2019'],
    [3306, 'mysql', 'MySQL 8.0.36'],
    [5432, 'postgresql', 'PostgreSQL DB 14'],
  ],
  web: [
    [80, 'http', 'nginx 1.24.0'],
    [443, 'https', 'nginx 1.24.0'],
    [8009, 'ajp13', 'Apache Jserv'],
    [8080, 'http-proxy', 'Apache Tomcat 9.0.65'],
  ],
}

/** Port and host kinds of the network templates, by words of their slug. */
const NETWORK_PLACES: [RegExp, number | null, 'tcp' | 'udp', HostProfile[]][] = [
  [/smb|ms17|eternal|null-session/, 445, 'tcp', ['windows', 'dc']],
  [
    /ldap-signing|adcs|ntlm-relay|delegation|spooler|petitpotam|zerologon|machine-account|dcsync|domain-admins|ad-acl|krbtgt/,
    389,
    'tcp',
    ['dc'],
  ],
  [/snmp/, 161, 'udp', ['printer', 'netdev']],
  [/telnet|smart-install|vlan|dtp/, 23, 'tcp', ['netdev']],
  [/ftp/, 21, 'tcp', ['printer', 'linux']],
  [/http-management/, 80, 'tcp', ['printer', 'bmc']],
  [/ssh|regresshion|terrapin/, 22, 'tcp', ['linux', 'netdev']],
  [/rdp|bluekeep/, 3389, 'tcp', ['windows']],
  [/vnc/, 5900, 'tcp', ['linux']],
  [/ipmi/, 623, 'udp', ['bmc']],
  [/network-device-default/, 443, 'tcp', ['netdev', 'bmc']],
  [/database-default/, 1433, 'tcp', ['db']],
  [/ajp|ghostcat/, 8009, 'tcp', ['web']],
  [/rmi/, 1099, 'tcp', ['web']],
  [/nfs/, 2049, 'tcp', ['linux']],
  [/ntp/, 123, 'udp', ['netdev']],
  [/ike/, 500, 'udp', ['netdev']],
  [/wsus/, 8530, 'tcp', ['windows']],
  [/winrm/, 5985, 'tcp', ['windows']],
  [/kubelet/, 10250, 'tcp', ['linux']],
  [/self-signed/, 443, 'tcp', ['printer', 'bmc', 'web']],
  [/unquoted|elevated|lsa-|powershell|event-logging|llmnr|mdns|wpad|dhcpv6|arp-/, null, 'tcp', ['windows']],
  [/unsupported|missing-critical|outdated/, null, 'tcp', ['windows', 'linux', 'web']],
]

// Rules scanners name by CVE or Nmap script rather than an OpenVAS OID.
const NETWORK_RULE_IDS: Record<string, string> = {
  'ms17-010-eternalblue': 'CVE-2017-0144',
  'rdp-bluekeep': 'CVE-2019-0708',
  'zerologon-netlogon': 'CVE-2020-1472',
  'tomcat-ajp-ghostcat': 'CVE-2020-1938',
  'openssh-regresshion': 'CVE-2024-6387',
  'ssh-terrapin-prefix-truncation': 'CVE-2023-48795',
  'petitpotam-efsrpc-coercion': 'CVE-2021-36942',
  'smb-signing-not-required': 'nmap:smb2-security-mode',
  'smbv1-enabled': 'nmap:smb-protocols',
  'snmp-default-community-strings': 'nmap:snmp-brute',
  'ntp-mode6-monlist': 'nmap:ntp-monlist',
  'ssh-weak-algorithms': 'nmap:ssh2-enum-algos',
  'rdp-without-nla': 'nmap:rdp-enum-encryption',
  'ike-aggressive-mode-psk': 'nmap:ike-version',
}

const oidOf = (slug: string) => {
  let n = 0
  for (const c of slug) n = (n * 31 + c.charCodeAt(0)) % 900_000
  return `1.3.6.1.4.1.25623.1.0.${100_000 + n}`
}

export function networkRules(): NetworkRule[] {
  const rules: NetworkRule[] = templatesFor('network').map((template) => {
    const place = NETWORK_PLACES.find(([re]) => re.test(template.slug))
    return {
      ...fromTemplate(template, NETWORK_RULE_IDS[template.slug] ?? oidOf(template.slug)),
      port: place ? place[1] : null,
      protocol: place ? place[2] : 'tcp',
      profiles: place ? place[3] : ['windows', 'linux'],
    }
  })
  const raw: NetworkRule[] = [
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.103440',
      title: 'SSL/TLS: Report Weak Cipher Suites',
      severity: 'medium',
      port: 443,
      protocol: 'tcp',
      profiles: ['web', 'printer', 'bmc'],
    },
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.103955',
      title: 'SSL/TLS: Certificate Expired',
      severity: 'medium',
      port: 443,
      protocol: 'tcp',
      profiles: ['printer', 'bmc', 'netdev'],
    },
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.103190',
      title: 'ICMP Timestamp Reply Information Disclosure',
      severity: 'low',
      port: null,
      protocol: 'tcp',
      profiles: [...HOST_PROFILES],
    },
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.80091',
      title: 'TCP Timestamps Information Disclosure',
      severity: 'low',
      port: null,
      protocol: 'tcp',
      profiles: [...HOST_PROFILES],
    },
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.10736',
      title: 'DCE/RPC and MSRPC Services Enumeration Reporting',
      severity: 'medium',
      port: 135,
      protocol: 'tcp',
      profiles: ['windows', 'dc'],
    },
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.108440',
      title: 'SSL/TLS: Deprecated TLSv1.0 and TLSv1.1 Protocol Detection',
      severity: 'medium',
      port: 443,
      protocol: 'tcp',
      profiles: ['web', 'bmc', 'printer'],
    },
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.105879',
      title: 'SSL/TLS: Certificate Signed Using A Weak Signature Algorithm',
      severity: 'medium',
      port: 443,
      protocol: 'tcp',
      profiles: ['printer', 'bmc'],
    },
    {
      ruleId: '1.3.6.1.4.1.25623.1.0.117274',
      title: 'Cleartext Transmission of Sensitive Information via HTTP',
      severity: 'medium',
      port: 80,
      protocol: 'tcp',
      profiles: ['printer', 'web'],
    },
  ]
  return [...rules, ...raw]
}

// Prowler check ids of the cloud templates.
const PROWLER_CHECKS: Record<string, string> = {
  'aws-root-account-without-mfa': 'iam_root_mfa_enabled',
  'aws-root-access-keys-present': 'iam_no_root_access_key',
  'aws-iam-console-users-without-mfa': 'iam_user_mfa_enabled_console_access',
  'aws-stale-access-keys': 'iam_rotate_access_key_90_days',
  'aws-iam-wildcard-admin-policy': 'iam_policy_no_administrative_privileges',
  'aws-s3-bucket-public-read': 's3_bucket_public_access',
  'aws-s3-bucket-public-write': 's3_bucket_policy_public_write_access',
  'aws-s3-block-public-access-disabled': 's3_account_level_public_access_blocks',
  'aws-s3-default-encryption-missing': 's3_bucket_default_encryption',
  'aws-s3-access-logging-disabled': 's3_bucket_server_access_logging_enabled',
  'aws-s3-versioning-disabled': 's3_bucket_object_versioning',
  'aws-cloudtrail-not-multi-region': 'cloudtrail_multi_region_enabled',
  'aws-cloudtrail-log-validation-disabled': 'cloudtrail_log_file_validation_enabled',
  'aws-guardduty-disabled': 'guardduty_is_enabled',
  'aws-vpc-flow-logs-disabled': 'vpc_flow_logs_enabled',
  'aws-security-group-admin-ports-open': 'ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_22',
  'aws-default-security-group-allows-traffic': 'ec2_securitygroup_default_restrict_traffic',
  'aws-imdsv1-enabled': 'ec2_instance_imdsv2_enabled',
  'aws-ebs-snapshot-public': 'ec2_ebs_public_snapshot',
  'aws-ebs-volumes-unencrypted': 'ec2_ebs_volume_encryption',
  'aws-rds-publicly-accessible': 'rds_instance_no_public_access',
  'aws-rds-snapshot-public': 'rds_snapshots_public_access',
  'aws-rds-storage-unencrypted': 'rds_instance_storage_encrypted',
  'aws-kms-key-rotation-disabled': 'kms_cmk_rotation_enabled',
  'aws-lambda-secrets-in-environment': 'awslambda_function_no_secrets_in_variables',
  'aws-ec2-user-data-secrets': 'ec2_instance_secrets_user_data',
  'aws-ecr-image-scanning-disabled': 'ecr_registry_scan_images_on_push_enabled',
  'aws-eks-public-endpoint-unrestricted': 'eks_cluster_not_publicly_accessible',
  'azure-users-without-mfa': 'entra_non_privileged_user_has_mfa',
  'azure-storage-anonymous-blob-access': 'storage_blob_public_access_level_is_disabled',
  'azure-storage-minimum-tls-version': 'storage_ensure_minimum_tls_version_12',
  'azure-key-vault-purge-protection-disabled': 'keyvault_recoverable',
  'azure-nsg-rdp-ssh-from-internet': 'network_rdp_internet_access_restricted',
  'azure-sql-auditing-disabled': 'sqlserver_auditing_enabled',
  'azure-defender-plans-disabled': 'defender_ensure_defender_for_server_is_on',
  'gcp-bucket-public-allusers': 'cloudstorage_bucket_public_access',
  'gcp-uniform-bucket-level-access-disabled': 'cloudstorage_bucket_uniform_bucket_level_access',
  'gcp-user-managed-service-account-keys': 'iam_sa_no_user_managed_keys',
  'gcp-firewall-open-to-internet': 'compute_firewall_ssh_access_from_the_internet_allowed',
  'gcp-cloud-sql-public-ip-open': 'cloudsql_instance_public_ip',
  'gcp-cloud-sql-ssl-not-enforced': 'cloudsql_instance_ssl_connections',
}

export interface CloudRule extends Rule {
  provider: 'aws' | 'azure' | 'gcp'
  cloudService: string
  /** Account-wide checks have one resource per account. */
  accountWide: boolean
}

export function cloudRules(): CloudRule[] {
  return templatesFor('cloud').map((template) => {
    const slug = template.slug
    const provider = slug.startsWith('azure-') ? 'azure' : slug.startsWith('gcp-') ? 'gcp' : 'aws'
    const words = slug.replace(/^(aws|azure|gcp)-/, '')
    const checkId = PROWLER_CHECKS[slug] ?? words.replaceAll('-', '_')
    const cloudService = checkId.split('_')[0] ?? 'account'
    const accountWide =
      /root|guardduty|cloudtrail|password-policy|global-admins|consent|legacy-auth|defender|activity-log|default-network|block-public-access|audit-logs/.test(
        slug,
      )
    return { ...fromTemplate(template, checkId), provider, cloudService: cloudService === 'kubernetes' ? 'eks' : cloudService, accountWide }
  })
}

/** Attack-surface exposures: where each shows (a subdomain, an open port, a domain) and the port it needs. */
export interface ExposureRule extends Rule {
  place: 'subdomain' | 'port' | 'domain'
  port?: number
}

const EXPOSURE_PORTS: [RegExp, number][] = [
  [/rdp/, 3389],
  [/ssh/, 22],
  [/smb-exposed/, 445],
  [/database-port/, 5432],
  [/mongodb/, 27017],
  [/redis/, 6379],
  [/elasticsearch/, 9200],
  [/kubernetes-api/, 6443],
  [/docker-api/, 2375],
  [/telnet/, 23],
  [/ftp/, 21],
  [/vnc/, 5900],
  [/ics-protocol/, 502],
  [/snmp/, 161],
  [/memcached/, 11211],
  [/smtp/, 25],
  [/open-dns/, 53],
]

export function exposureRules(): ExposureRule[] {
  return templatesFor('projectmariana').map((template) => {
    const slug = template.slug
    const port = EXPOSURE_PORTS.find(([re]) => re.test(slug))?.[1]
    const domainLevel =
      /spf|dmarc|dkim|dnssec|caa|mta-sts|zone-transfer|registrar|lookalike|leaked|secrets-in|paste|infostealer|security-txt|internal-ip/.test(
        slug,
      )
    return { ...fromTemplate(template, slug), place: port ? 'port' : domainLevel ? 'domain' : 'subdomain', ...(port ? { port } : {}) }
  })
}

export const passwordTemplate = (slug: string): FindingTemplate => {
  const template = DEMO_FINDING_TEMPLATES.find((t) => t.slug === slug)
  if (!template) throw new Error(`No demo template ${slug}`)
  return template
}
