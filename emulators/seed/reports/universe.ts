// Everything a company's service will see over the demo year, before any scan is applied: the
// issues (each with the months the scanner sees it) and the assets (with the months they exist and
// their open ports). The simulation (simulate.ts) turns this into scans and findings through the
// product's own publication and workflow functions.
import type { FingerprintParts } from '#domain/fingerprints.ts'
import type { FindingLocation } from '#domain/findings.ts'
import { describePassword, type PasswordDescription } from '#domain/password-audit.ts'
import type { ServiceId } from '#domain/services.ts'
import { DAY_MS } from '#domain/sla.ts'
import type { AssetType } from '#domain/assets.ts'
import {
  cloudRules,
  DAST_RAW_RULES,
  exposureRules,
  fromTemplate,
  networkRules,
  owaspCategory,
  passwordTemplate,
  PROFILE_PORTS,
  SEVERITY_WEIGHT,
  templatesFor,
  ZAP_RULE_IDS,
  type HostProfile,
  type Rule,
} from './catalogue.ts'
import { MONTHS, SEED_NOW } from './calendar.ts'
import { seededRandom, type Random } from './random.ts'

export interface IssueSpec<S extends ServiceId = ServiceId> {
  parts: FingerprintParts[S]
  rule: Rule
  asset: string
  location: FindingLocation
  evidence: string
  /** The months (0 to 11) the scanner sees it, ascending. */
  months: number[]
  /** Figures the scan statistics group by (OWASP category, endpoint, host, region ...). */
  meta: Record<string, string>
}

export interface PortDetail {
  port: number
  protocol: string
  service: string
  product: string
}

export interface AssetSpec {
  key: string
  type: AssetType
  value: string
  parent: string | null
  months: number[]
  /** Open ports per month (network hosts and attack-surface IPs). */
  ports?: (month: number) => PortDetail[]
  technologies?: string[]
  notAfter?: number | null
  issuer?: string
  account?: AccountInfo
  cloud?: { account: string; region: string; cloudService: string }
  tags?: string[]
}

export interface AccountInfo {
  masked: string
  cracked: boolean
  length: number | null
  classes: string[]
  patterns: string[]
  privileged: boolean
  reuseCluster: string | null
  reuseCount: number
}

/** Per password audit: what it found, without a single password. */
export interface PasswordAuditMonth {
  audited: number
  accounts: Map<
    string,
    { description: PasswordDescription | null; privileged: boolean; reuseCluster: string | null; reuseCount: number; lm: boolean }
  >
  clusters: number[]
}

export interface ServiceUniverse {
  service: ServiceId
  scopeKey: string
  tool: string
  targets: string[]
  title: (monthName: string) => string
  issues: IssueSpec[]
  assets: AssetSpec[]
  /** Password audits only. */
  audits?: PasswordAuditMonth[]
  /** Cloud only: the checks that passed and were manual, per month. */
  cloudTotals?: { passed: number; manual: number }[]
}

export interface CompanyProfile {
  slug: string
  name: string
  /** Brand words people put in passwords. */
  brands: string[]
  domains: string[]
  adDomain: string
  /** Issues to draw per service over the year. */
  issues: Partial<Record<ServiceId, number>>
  dastTargets: string[]
  internalNet: string
  internalHosts: number
  externalNet: string
  accounts: number
  cloudAccounts: { provider: 'aws' | 'azure' | 'gcp'; id: string; name: string; regions: string[] }[]
}

export const COMPANY_PROFILES: Record<string, CompanyProfile> = {
  acme: {
    slug: 'acme',
    name: 'Acme Corporation',
    brands: ['acme', 'roadrunner'],
    domains: ['acme.example', 'acme-corp.example', 'acmeshop.example'],
    adDomain: 'ACME',
    issues: { dast: 10_300, network: 8_900, cloud: 1_200, projectmariana: 520 },
    dastTargets: ['www', 'shop', 'api', 'portal', 'support', 'careers', 'partners'].map((h) => `https://${h}.acme.example`),
    internalNet: '10.20',
    internalHosts: 760,
    externalNet: '203.0.113',
    accounts: 360,
    cloudAccounts: [
      { provider: 'aws', id: '123456789012', name: 'acme-prod', regions: ['eu-west-1', 'eu-central-1', 'us-east-1'] },
      { provider: 'aws', id: '210987654321', name: 'acme-staging', regions: ['eu-west-1'] },
      { provider: 'azure', id: '3f2b9c4e-8d1a-4b7e-9c2f-5a6d7e8f9a0b', name: 'Acme Corporate', regions: ['westeurope', 'northeurope'] },
      { provider: 'gcp', id: 'acme-analytics-prod', name: 'acme-analytics-prod', regions: ['europe-west1'] },
    ],
  },
  globex: {
    slug: 'globex',
    name: 'Globex Industries',
    brands: ['globex', 'hank'],
    domains: ['globex.example', 'globex-industries.example'],
    adDomain: 'GLOBEX',
    issues: { network: 2_300, cloud: 600, projectmariana: 300 },
    dastTargets: [],
    internalNet: '10.60',
    internalHosts: 200,
    externalNet: '198.51.100',
    accounts: 0,
    cloudAccounts: [
      { provider: 'aws', id: '345678901234', name: 'globex-production', regions: ['us-east-1', 'us-west-2'] },
      { provider: 'azure', id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Globex Manufacturing', regions: ['eastus'] },
    ],
  },
  initech: {
    slug: 'initech',
    name: 'Initech',
    brands: ['initech', 'tps'],
    domains: ['initech.example'],
    adDomain: 'INITECH',
    issues: { dast: 1_700 },
    dastTargets: ['www', 'tps', 'api', 'intranet'].map((h) => `https://${h}.initech.example`),
    internalNet: '10.90',
    internalHosts: 0,
    externalNet: '192.0.2',
    accounts: 160,
    cloudAccounts: [],
  },
}

export const severityWeighted = (rules: readonly Rule[]) => rules.map((rule) => [rule, SEVERITY_WEIGHT[rule.severity]] as const)

/**
 * The months an issue is seen: it appears in `start`, stays one month or several (few for the
 * whole year), and now and then comes back after a gap (a regression).
 */
export function lifeMonths(random: Random, start: number, within: readonly number[] = ALL_MONTHS): number[] {
  const length = random.weighted([
    [1, 48],
    [2, 20],
    [3, 10],
    [random.int(4, 7), 9],
    [MONTHS, 4],
  ] as const)
  const months = new Set<number>()
  for (let m = start; m < Math.min(MONTHS, start + length); m++) months.add(m)
  const last = Math.max(...months)
  if (random.chance(0.06) && last + 2 < MONTHS) {
    const back = last + random.int(2, 3)
    for (let m = back; m < Math.min(MONTHS, back + random.int(1, 2)); m++) months.add(m)
  }
  const allowed = new Set(within)
  return [...months].filter((m) => allowed.has(m)).sort((a, b) => a - b)
}

const ALL_MONTHS = Array.from({ length: MONTHS }, (_, m) => m)

/** A first month: a backlog in the first scan, then fewer new issues each month as the programme matures. */
const startMonth = (random: Random) =>
  random.weighted([[0, 30], ...Array.from({ length: MONTHS - 1 }, (_, i) => [i + 1, 10 - (i * 7) / (MONTHS - 2)] as const)] as const)

function drawIssues<S extends ServiceId>(
  random: Random,
  count: number,
  draw: () => (IssueSpec<S> & { key: string }) | null,
): IssueSpec<S>[] {
  const seen = new Set<string>()
  const issues: IssueSpec<S>[] = []
  for (let attempt = 0; issues.length < count && attempt < count * 6; attempt++) {
    const issue = draw()
    if (!issue || seen.has(issue.key) || issue.months.length === 0) continue
    seen.add(issue.key)
    const { key: _key, ...rest } = issue
    issues.push(rest)
  }
  // Every service shows a regression in the last scan: seen, then not for a month, then again.
  if (
    issues.length > 0 &&
    !issues.some((i) => i.months.includes(MONTHS - 3) && !i.months.includes(MONTHS - 2) && i.months.includes(MONTHS - 1))
  ) {
    const first = issues[Math.floor(random.next() * issues.length)]!
    first.months = [MONTHS - 4, MONTHS - 3, MONTHS - 1]
  }
  return issues
}

// ---- DAST ----------------------------------------------------------------------------------

const DAST_PATHS = [
  '/',
  '/login',
  '/logout',
  '/register',
  '/account',
  '/account/settings',
  '/account/orders',
  '/account/addresses',
  '/cart',
  '/checkout',
  '/checkout/payment',
  '/checkout/confirm',
  '/search',
  '/contact',
  '/about',
  '/blog',
  '/faq',
  '/api/v1/orders',
  '/api/v1/users',
  '/api/v1/products',
  '/api/v1/invoices',
  '/api/v1/sessions',
  '/api/v2/orders',
  '/api/v2/search',
  '/api/v2/customers',
  '/graphql',
  '/admin',
  '/admin/users',
  '/admin/reports',
  '/reset-password',
  '/forgot-password',
  '/downloads',
  '/static/js/main.js',
  '/assets/app.js',
  '/jobs',
  '/jobs/apply',
  '/tickets',
  '/tickets/new',
  '/kb/articles',
  '/partners/portal',
  '/upload',
  '/export',
  '/newsletter',
  '/sitemap.xml',
  '/robots.txt',
  '/wishlist',
  '/compare',
  '/orders/track',
  '/returns',
  '/invoices/download',
]
export const DAST_PARAMETERS = ['q', 'id', 'redirect', 'file', 'page', 'sort', 'token', 'email', 'callback', 'orderId', 'returnUrl', 'lang']
/** DAST rules that concern a request parameter. */
export const PARAMETRISED =
  /injection|scripting|traversal|inclusion|redirect|ssrf|idor|crlf|template|deserialization|pollution|formula|enumeration|cross-site-request/

function dastUniverse(profile: CompanyProfile, random: Random, count: number): ServiceUniverse {
  const rules: Rule[] = [...templatesFor('dast').map((t) => fromTemplate(t, ZAP_RULE_IDS[t.slug] ?? `nuclei:${t.slug}`)), ...DAST_RAW_RULES]
  const weighted = severityWeighted(rules)
  const pathsOf = new Map(
    profile.dastTargets.map((target) => {
      const products = Array.from({ length: 60 }, (_, i) => `/products/${1000 + i * 7}`)
      const articles = Array.from(
        { length: 40 },
        (_, i) => `/blog/2026/${['release-notes', 'security-update', 'webinar', 'case-study'][i % 4]}-${i + 1}`,
      )
      return [target, random.shuffle([...DAST_PATHS, ...products, ...articles]).slice(0, 130)] as const
    }),
  )
  const issues = drawIssues<'dast'>(random, count, () => {
    const rule = random.weighted(weighted)
    const target = random.pick(profile.dastTargets)
    const path = random.pick(pathsOf.get(target)!)
    const parametrised = PARAMETRISED.test(`${rule.template?.slug ?? ''} ${rule.title.toLowerCase()}`)
    const parameter = parametrised ? random.pick(DAST_PARAMETERS) : ''
    const method = parametrised && random.chance(0.35) ? 'POST' : 'GET'
    const url = `${target}${path}`
    const evidence = parametrised
      ? `\`${method} ${url}\`, parameter \`${parameter}\`: the test payload came back unencoded in the response (${rule.ruleId}).`
      : `\`${method} ${url}\` answered \`200 OK\`; ${rule.ruleId} matched the response.`
    return {
      key: `${rule.ruleId}|${url}|${parameter}|${method}`,
      parts: { ruleId: rule.ruleId, url, parameter, method },
      rule,
      asset: url,
      location: { url, method, ...(parameter ? { parameter } : {}), host: new URL(target).hostname },
      evidence,
      months: lifeMonths(random, startMonth(random)),
      meta: { owasp: owaspCategory(rule), endpoint: `${new URL(target).hostname}${path}`, target },
    }
  })
  return {
    service: 'dast',
    scopeKey: `dast:${profile.dastTargets.map((t) => new URL(t).hostname).join(',')}`,
    tool: 'zap',
    targets: profile.dastTargets,
    title: (month) => `Monthly web application scan, ${month}`,
    issues,
    assets: [],
  }
}

// ---- Network ---------------------------------------------------------------------------------

interface Host {
  ip: string
  name: string
  profile: HostProfile
  months: number[]
}

const HOST_NAMES: Record<HostProfile, string> = {
  windows: 'srv',
  dc: 'dc',
  linux: 'lnx',
  printer: 'prn',
  netdev: 'sw',
  bmc: 'ilo',
  db: 'db',
  web: 'web',
}

function networkUniverse(profile: CompanyProfile, random: Random, count: number): ServiceUniverse {
  const hosts: Host[] = []
  const profiles = [
    ['windows', 38],
    ['linux', 22],
    ['printer', 10],
    ['netdev', 9],
    ['bmc', 6],
    ['db', 6],
    ['web', 8],
    ['dc', 1],
  ] as const
  for (let i = 0; i < profile.internalHosts; i++) {
    const kind: HostProfile = i < 4 ? 'dc' : random.weighted(profiles)
    const subnet = 1 + Math.floor(i / 200)
    const ip = `${profile.internalNet}.${subnet}.${10 + (i % 200)}`
    const start = random.chance(0.12) ? random.int(1, MONTHS - 1) : 0
    const end = random.chance(0.08) ? random.int(start, MONTHS - 2) : MONTHS - 1
    const months = ALL_MONTHS.filter((m) => m >= start && m <= end)
    hosts.push({
      ip,
      name: `${profile.slug}-${HOST_NAMES[kind]}${String(i + 1).padStart(3, '0')}.corp.${profile.domains[0]}`,
      profile: kind,
      months,
    })
  }
  for (let i = 0; i < 24; i++)
    hosts.push({
      ip: `${profile.externalNet}.${10 + i}`,
      name: `edge${i + 1}.${profile.domains[0]}`,
      profile: i % 3 === 0 ? 'netdev' : 'web',
      months: [...ALL_MONTHS],
    })
  const byProfile = new Map<HostProfile, Host[]>()
  for (const host of hosts) byProfile.set(host.profile, [...(byProfile.get(host.profile) ?? []), host])
  const rules = networkRules()
  const weighted = severityWeighted(rules)
  const issues = drawIssues<'network'>(random, count, () => {
    const rule = random.weighted(weighted) as (typeof rules)[number]
    const candidates = rule.profiles.flatMap((p) => byProfile.get(p) ?? [])
    if (candidates.length === 0) return null
    const host = random.pick(candidates)
    const port = rule.port
    const label = port === null ? host.ip : `${host.ip}:${port}/${rule.protocol}`
    return {
      key: `${host.ip}|${rule.protocol}|${port}|${rule.ruleId}`,
      parts: { ip: host.ip, protocol: rule.protocol, port, ruleId: rule.ruleId },
      rule,
      asset: label,
      location: { host: host.ip, ...(port === null ? {} : { port: String(port), protocol: rule.protocol }) },
      evidence: `${host.name} (${host.ip})${port === null ? '' : `, ${rule.protocol.toUpperCase()} ${port}`}: ${rule.ruleId} reported "${rule.title}".`,
      months: lifeMonths(random, Math.max(host.months[0]!, startMonth(random)), host.months),
      meta: { host: host.ip, hostName: host.name },
    }
  })
  // A host's open ports: its kind's, plus the ones its issues need while they are seen.
  const issuePorts = new Map<string, Map<number, Set<number>>>()
  for (const issue of issues) {
    const port = (issue.parts as FingerprintParts['network']).port
    if (port === null || port === undefined) continue
    const byMonth = issuePorts.get(issue.meta.host!) ?? new Map<number, Set<number>>()
    for (const m of issue.months) byMonth.set(m, (byMonth.get(m) ?? new Set()).add(port))
    issuePorts.set(issue.meta.host!, byMonth)
  }
  const assets: AssetSpec[] = hosts.map((host) => {
    const base: PortDetail[] = PROFILE_PORTS[host.profile].map(([port, service, product]) => ({ port, protocol: 'tcp', service, product }))
    return {
      key: `host:${host.ip}`,
      type: 'host',
      value: host.ip,
      parent: host.name,
      months: host.months,
      ports: (month) => {
        const extra = [...(issuePorts.get(host.ip)?.get(month) ?? [])].filter((p) => !base.some((b) => b.port === p))
        return [...base, ...extra.map((port) => ({ port, protocol: 'tcp', service: 'unknown', product: '' }))].sort(
          (a, b) => a.port - b.port,
        )
      },
      tags: [host.profile === 'dc' ? 'domain controller' : host.profile],
    }
  })
  const internal = profile.internalHosts > 0 ? [`${profile.internalNet}.0.0/16`] : []
  return {
    service: 'network',
    scopeKey: `network:${[...internal, `${profile.externalNet}.0/24`].join(',')}`,
    tool: 'openvas',
    targets: [...internal, `${profile.externalNet}.0/24`],
    title: (month) => `Monthly network vulnerability scan, ${month}`,
    issues,
    assets,
  }
}

// ---- Cloud -----------------------------------------------------------------------------------

const RESOURCE_WORDS = [
  'billing',
  'analytics',
  'web',
  'orders',
  'logs',
  'backup',
  'data',
  'ml',
  'media',
  'reports',
  'etl',
  'auth',
  'search',
  'crm',
  'payments',
]

function resourceName(random: Random, provider: string, account: string, region: string, cloudService: string, slug: string): string {
  const word = random.pick(RESOURCE_WORDS)
  const n = random.int(1, 12)
  const hex = random.int(0x1000000, 0xfffffff).toString(16)
  if (provider === 'aws') {
    if (cloudService === 's3') return `arn:aws:s3:::${slug}-${word}-${n}`
    if (cloudService === 'iam') return `arn:aws:iam::${account}:${/role|oidc/.test(slug) ? 'role' : 'user'}/${word}-${n}`
    if (cloudService === 'ec2')
      return `arn:aws:ec2:${region}:${account}:${/securitygroup/.test(slug) ? 'security-group/sg-0' : 'instance/i-0'}${hex}`
    if (cloudService === 'rds') return `arn:aws:rds:${region}:${account}:db:${word}-db-${n}`
    if (cloudService === 'awslambda') return `arn:aws:lambda:${region}:${account}:function:${word}-handler-${n}`
    return `arn:aws:${cloudService}:${region}:${account}:${word}-${n}`
  }
  if (provider === 'azure') return `/subscriptions/${account}/resourceGroups/rg-${word}/providers/Microsoft.${cloudService}/${word}${n}`
  return `projects/${account}/${cloudService}/${word}-${n}`
}

function cloudUniverse(profile: CompanyProfile, random: Random, count: number): ServiceUniverse {
  const rules = cloudRules()
  const weighted = severityWeighted(rules)
  const issues = drawIssues<'cloud'>(random, count, () => {
    const rule = random.weighted(weighted) as (typeof rules)[number]
    const accounts = profile.cloudAccounts.filter((a) => a.provider === rule.provider)
    if (accounts.length === 0) return null
    const account = random.pick(accounts)
    const region = rule.accountWide ? (account.provider === 'aws' ? 'us-east-1' : 'global') : random.pick(account.regions)
    const resource = rule.accountWide
      ? `${account.provider}:${account.id}`
      : resourceName(random, account.provider, account.id, region, rule.cloudService, profile.slug)
    return {
      key: `${account.id}|${region}|${rule.ruleId}|${resource}`,
      parts: { provider: account.provider, account: account.id, region, checkId: rule.ruleId, resource },
      rule,
      asset: resource,
      location: { account: account.id, region, cloudService: rule.cloudService, resource },
      evidence: `Prowler ${rule.ruleId}: FAIL for ${resource} in ${account.name} (${region}).`,
      months: lifeMonths(random, startMonth(random)),
      meta: { account: account.name, accountId: account.id, region, cloudService: rule.cloudService, provider: account.provider },
    }
  })
  const resources = new Map<string, AssetSpec>()
  for (const issue of issues) {
    const resource = issue.asset
    const spec = resources.get(resource) ?? {
      key: `cloud_resource:${resource}`,
      type: 'cloud_resource' as const,
      value: resource,
      parent: issue.meta.account!,
      months: [] as number[],
      cloud: { account: issue.meta.accountId!, region: issue.meta.region!, cloudService: issue.meta.cloudService! },
      tags: [issue.meta.provider!],
    }
    spec.months = [...new Set([...spec.months, ...issue.months])].sort((a, b) => a - b)
    resources.set(resource, spec)
  }
  const cloudTotals = ALL_MONTHS.map((m) => {
    const failed = issues.filter((i) => i.months.includes(m)).length
    return { passed: Math.round(failed * (2.6 + m * 0.15)) + 40, manual: 18 + (m % 4) }
  })
  return {
    service: 'cloud',
    scopeKey: `cloud:${profile.cloudAccounts.map((a) => a.id).join(',')}`,
    tool: 'prowler',
    targets: profile.cloudAccounts.map((a) => `${a.provider}:${a.name}`),
    title: (month) => `Cloud configuration review, ${month}`,
    issues,
    assets: [...resources.values()],
    cloudTotals,
  }
}

// ---- Attack surface --------------------------------------------------------------------------

const SUBDOMAINS = [
  'www',
  'shop',
  'api',
  'portal',
  'support',
  'careers',
  'mail',
  'vpn',
  'remote',
  'autodiscover',
  'owa',
  'sso',
  'auth',
  'dev',
  'staging',
  'test',
  'uat',
  'jenkins',
  'gitlab',
  'grafana',
  'kibana',
  'status',
  'cdn',
  'static',
  'assets',
  'images',
  'blog',
  'docs',
  'help',
  'partners',
  'b2b',
  'files',
  'sftp',
  'backup',
  'monitor',
  'crm',
  'erp',
  'hr',
  'intranet',
  'legacy',
  'old',
  'beta',
  'm',
  'app',
  'admin',
  'cms',
  'wiki',
  'jira',
  'confluence',
  'registry',
  'k8s',
  'media',
  'events',
  'news',
  'pay',
  'billing',
  'tickets',
  'survey',
  'lab',
  'sandbox',
  'demo',
  'qa',
  'preprod',
  'gw',
  'proxy',
  'mx1',
  'mx2',
]
const TECHNOLOGIES = [
  'nginx',
  'Apache HTTP Server',
  'Microsoft IIS',
  'Cloudflare',
  'WordPress',
  'React',
  'Angular',
  'jQuery',
  'PHP',
  'Microsoft Exchange',
  'Fortinet FortiGate',
  'Jenkins',
  'Grafana',
  'Kibana',
  'Atlassian Confluence',
  'GitLab',
  'Varnish',
  'Amazon CloudFront',
  'Node.js',
]
const ISSUERS = [
  "Let's Encrypt R11",
  'DigiCert Global G2 TLS RSA SHA256 2020 CA1',
  'Sectigo RSA Domain Validation Secure Server CA',
  'Amazon RSA 2048 M02',
]
const PORT_SERVICES: Record<number, string> = {
  21: 'ftp',
  22: 'ssh',
  23: 'telnet',
  25: 'smtp',
  53: 'domain',
  80: 'http',
  161: 'snmp',
  443: 'https',
  445: 'microsoft-ds',
  502: 'modbus',
  2375: 'docker',
  3389: 'ms-wbt-server',
  5432: 'postgresql',
  5900: 'vnc',
  6379: 'redis',
  6443: 'kubernetes',
  9200: 'elasticsearch',
  11211: 'memcached',
  27017: 'mongodb',
}

function marianaUniverse(profile: CompanyProfile, random: Random, count: number): ServiceUniverse {
  const subdomains: { name: string; domain: string; ip: string; months: number[]; https: boolean }[] = []
  const ips = Array.from({ length: 30 }, (_, i) => `${profile.externalNet}.${100 + i}`)
  profile.domains.forEach((domain, d) => {
    const names = d === 0 ? SUBDOMAINS : random.shuffle(SUBDOMAINS).slice(0, 12)
    for (const name of names) {
      const start = random.chance(0.15) ? random.int(1, MONTHS - 1) : 0
      const end = random.chance(0.1) ? random.int(start, MONTHS - 2) : MONTHS - 1
      subdomains.push({
        name: `${name}.${domain}`,
        domain,
        ip: random.pick(ips),
        months: ALL_MONTHS.filter((m) => m >= start && m <= end),
        https: !/^mx\d/.test(name),
      })
    }
  })
  const rules = exposureRules()
  const weighted = severityWeighted(rules)
  const ipMonths = new Map<string, Set<number>>()
  for (const s of subdomains) ipMonths.set(s.ip, new Set([...(ipMonths.get(s.ip) ?? []), ...s.months]))
  const issues = drawIssues<'projectmariana'>(random, count, () => {
    const rule = random.weighted(weighted) as (typeof rules)[number]
    let assetKey: string
    let within: number[]
    let host: string
    if (rule.place === 'domain') {
      assetKey = random.pick(profile.domains)
      within = [...ALL_MONTHS]
      host = assetKey
    } else {
      const sub = random.pick(subdomains)
      within = sub.months
      host = sub.name
      assetKey = rule.place === 'port' ? `${sub.ip}:${rule.port}` : sub.name
    }
    return {
      key: `${assetKey}|${rule.ruleId}`,
      parts: { assetKey, exposureType: rule.ruleId },
      rule,
      asset: assetKey,
      location: rule.place === 'port' ? { host: assetKey.split(':')[0]!, port: String(rule.port), domain: host } : { domain: host },
      evidence: `Discovered on ${host}${rule.place === 'port' ? ` (${assetKey})` : ''} during passive and active enumeration.`,
      months: lifeMonths(random, startMonth(random), within),
      meta: { host, place: rule.place },
    }
  })
  const openedBy = new Map<string, Map<number, Set<number>>>()
  for (const issue of issues) {
    if (issue.meta.place !== 'port') continue
    const [ip, port] = issue.asset.split(':') as [string, string]
    const byMonth = openedBy.get(ip) ?? new Map<number, Set<number>>()
    for (const m of issue.months) byMonth.set(m, (byMonth.get(m) ?? new Set()).add(Number(port)))
    openedBy.set(ip, byMonth)
  }
  const assets: AssetSpec[] = []
  for (const domain of profile.domains)
    assets.push({ key: `domain:${domain}`, type: 'domain', value: domain, parent: null, months: [...ALL_MONTHS] })
  subdomains.forEach((sub, i) => {
    assets.push({
      key: `subdomain:${sub.name}`,
      type: 'subdomain',
      value: sub.name,
      parent: sub.domain,
      months: sub.months,
      technologies: random.shuffle(TECHNOLOGIES).slice(0, random.int(1, 3)),
    })
    if (sub.https) {
      // Spread over the next year, some expiring within 30 days of "now" and a few expired.
      const offsetDays = i % 11 === 0 ? -random.int(3, 40) : i % 7 === 0 ? random.int(2, 28) : random.int(35, 360)
      assets.push({
        key: `certificate:${sub.name}`,
        type: 'certificate',
        value: sub.name,
        parent: sub.name,
        months: sub.months,
        notAfter: Date.UTC(2026, 10, 20, 12) + offsetDays * DAY_MS,
        issuer: random.pick(ISSUERS),
      })
    }
  })
  for (const [ip, months] of ipMonths)
    assets.push({
      key: `ip:${ip}`,
      type: 'ip',
      value: ip,
      parent: null,
      months: [...months].sort((a, b) => a - b),
      ports: (month) =>
        [...new Set([80, 443, ...(openedBy.get(ip)?.get(month) ?? [])])]
          .sort((a, b) => a - b)
          .map((port) => ({ port, protocol: port === 161 ? 'udp' : 'tcp', service: PORT_SERVICES[port] ?? 'unknown', product: '' })),
    })
  return {
    service: 'projectmariana',
    scopeKey: `projectmariana:${profile.domains.join(',')}`,
    tool: 'projectmariana',
    targets: profile.domains,
    title: (month) => `Attack surface discovery, ${month}`,
    issues,
    assets,
  }
}

// ---- Password audit --------------------------------------------------------------------------

const FIRST = [
  'james',
  'mary',
  'john',
  'patricia',
  'robert',
  'jennifer',
  'michael',
  'linda',
  'david',
  'elizabeth',
  'william',
  'susan',
  'richard',
  'jessica',
  'joseph',
  'sarah',
  'thomas',
  'karen',
  'chris',
  'lisa',
  'daniel',
  'nancy',
  'paul',
  'sandra',
  'mark',
  'emma',
  'peter',
  'anna',
  'lukas',
  'sofia',
]
const LAST = [
  'smith',
  'jones',
  'taylor',
  'brown',
  'williams',
  'wilson',
  'johnson',
  'davies',
  'patel',
  'wright',
  'walker',
  'white',
  'green',
  'hall',
  'wood',
  'martin',
  'clarke',
  'jackson',
  'mueller',
  'schmidt',
  'rossi',
  'dubois',
  'novak',
  'kowalski',
]
const WORDS = [
  'Password',
  'Welcome',
  'Football',
  'Sunshine',
  'Dragon',
  'Monkey',
  'Liverpool',
  'Chelsea',
  'Arsenal',
  'Letmein',
  'Master',
  'Shadow',
]
const SEASONS = ['Spring', 'Summer', 'Autumn', 'Winter']
const WALKS = ['Qwerty123!', '1qaz2wsx', 'Qwertz2026', 'asdf1234', '1qaz!QAZ', 'Zxcvbnm1']
const SHARED_INITIAL = ['Welcome1!', 'Start123!', 'Changeme2026']

interface AdAccount {
  name: string
  privileged: boolean
  service: boolean
}

// A plausible password for the account in its password epoch: weak ones are what cracking finds.
function drawPassword(random: Random, account: AdAccount, profile: CompanyProfile, month: number): string {
  const weakShare = 0.36 - month * 0.016 + (account.service ? 0.15 : 0)
  if (!random.chance(weakShare)) return `${random.int(1e9, 9e9).toString(36)}-${random.int(1e9, 9e9).toString(36)}-${random.int(1e5, 9e5)}`
  const year = 2025 + Math.floor((month + 11) / 12)
  const brand = random.pick(profile.brands)
  return random.weighted([
    [`${random.pick(SEASONS)}${year}${random.chance(0.5) ? '!' : ''}`, 26],
    [`${brand[0]!.toUpperCase()}${brand.slice(1)}${random.int(1, 99)}${random.chance(0.5) ? '!' : ''}`, 16],
    [random.pick(WALKS), 12],
    [`${random.pick(WORDS)}${random.int(1, 2026)}`, 22],
    [`${account.name.split('.')[0]!}${year}`, 8],
    [random.pick(SHARED_INITIAL), 16],
  ] as const)
}

function passwordUniverse(profile: CompanyProfile, random: Random): ServiceUniverse {
  const accounts: AdAccount[] = []
  const names = new Set<string>()
  while (accounts.length < profile.accounts) {
    const privileged = accounts.length < 10
    const service = !privileged && accounts.length < 26
    const name = privileged
      ? `adm-${random.pick(FIRST)}.${random.pick(LAST)}`
      : service
        ? `svc-${random.pick(['sql', 'backup', 'sharepoint', 'veeam', 'scan', 'print', 'web', 'sap', 'iis', 'exchange'])}${random.int(1, 9)}`
        : `${random.pick(FIRST)}.${random.pick(LAST)}`
    if (names.has(name)) continue
    names.add(name)
    accounts.push({ name, privileged, service })
  }
  const domain = profile.adDomain
  const issueMonths = new Map<string, { account: string; slug: string; months: number[]; privileged: boolean }>()
  const addIssue = (account: string, slug: string, month: number, privileged = false) => {
    const key = `${account}|${slug}`
    const entry = issueMonths.get(key) ?? { account, slug, months: [], privileged }
    entry.months.push(month)
    issueMonths.set(key, entry)
  }
  const audits: PasswordAuditMonth[] = []
  // Each account changes its password every three to five months.
  const current = new Map<string, { password: string; until: number }>()
  for (let month = 0; month < MONTHS; month++) {
    const described = new Map<string, PasswordDescription | null>()
    const byPassword = new Map<string, string[]>()
    for (const account of accounts) {
      let held = current.get(account.name)
      if (!held || held.until <= month) {
        held = { password: drawPassword(random, account, profile, month), until: month + random.int(3, 5) }
        current.set(account.name, held)
      }
      const cracked = !/^[0-9a-z]+-[0-9a-z]+-\d+$/.test(held.password)
      described.set(
        account.name,
        cracked ? describePassword(held.password, { username: account.name, companyNames: profile.brands }) : null,
      )
      if (cracked) byPassword.set(held.password, [...(byPassword.get(held.password) ?? []), account.name])
    }
    // Reuse clusters are numbered by size, then by their first account: no password or hash is kept.
    const clusters = [...byPassword.values()]
      .filter((members) => members.length > 1)
      .sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!))
    const clusterOf = new Map<string, { id: string; size: number }>()
    clusters.forEach((members, i) => members.forEach((name) => clusterOf.set(name, { id: `cluster-${i + 1}`, size: members.length })))
    const auditAccounts: PasswordAuditMonth['accounts'] = new Map()
    for (const account of accounts) {
      const description = described.get(account.name) ?? null
      const cluster = clusterOf.get(account.name)
      const lm = month < 6 && account.service && account.name.endsWith('1')
      auditAccounts.set(account.name, {
        description,
        privileged: account.privileged,
        reuseCluster: cluster?.id ?? null,
        reuseCount: cluster?.size ?? 0,
        lm,
      })
      if (!description) continue
      const who = `${domain}\\${account.name}`
      if (account.privileged) addIssue(who, 'domain-admin-password-cracked', month, true)
      else if (account.service) addIssue(who, 'kerberoastable-service-account-weak-password', month)
      if (description.patterns.includes('username')) addIssue(who, 'password-equals-username', month)
      if (description.patterns.includes('season_year')) addIssue(who, 'passwords-seasonal-pattern', month)
      if (description.patterns.includes('company_name')) addIssue(who, 'passwords-contain-company-name', month)
      if (cluster) addIssue(who, cluster.size >= 5 ? 'initial-password-never-changed' : 'shared-passwords-across-accounts', month)
      if (description.patterns.length === 0 && !cluster && !account.privileged) addIssue(who, 'breached-passwords-in-use', month)
    }
    const crackedCount = [...described.values()].filter(Boolean).length
    if (month < 6) addIssue(domain, 'lm-hashes-stored', month)
    if (month < 8) addIssue(domain, 'domain-minimum-password-length-short', month)
    if (month < 4) addIssue(domain, 'account-lockout-not-configured', month)
    if (crackedCount / accounts.length > 0.2) addIssue(domain, 'high-proportion-domain-passwords-cracked', month)
    audits.push({ audited: accounts.length, accounts: auditAccounts, clusters: clusters.map((c) => c.length) })
  }
  const issues: IssueSpec[] = [...issueMonths.values()].map(({ account, slug, months }) => {
    const template = passwordTemplate(slug)
    const isDomain = !account.includes('\\')
    const name = isDomain ? '' : account.slice(account.indexOf('\\') + 1)
    return {
      parts: { domain, account: name, issueType: slug },
      rule: fromTemplate(template, slug),
      asset: account,
      location: isDomain ? { domain } : { domain, account: name },
      evidence: isDomain
        ? `Domain-wide finding of the ${domain} audit.`
        : `The NT hash of ${account} was recovered with wordlists and rules; the password is masked.`,
      months,
      meta: { account },
    }
  })
  const last = audits.at(-1)!
  const assets: AssetSpec[] = accounts.map((account) => {
    const audit = last.accounts.get(account.name)!
    const description = audit.description
    return {
      key: `account:${domain}\\${account.name}`,
      type: 'account',
      value: `${domain}\\${account.name}`,
      parent: domain,
      months: [...ALL_MONTHS],
      account: {
        masked: description?.masked ?? '(not cracked)',
        cracked: description !== null,
        length: description?.length ?? null,
        classes: description?.classes ?? [],
        patterns: description?.patterns ?? [],
        privileged: account.privileged,
        reuseCluster: audit.reuseCluster,
        reuseCount: audit.reuseCount,
      },
      tags: account.privileged ? ['Domain Admins'] : account.service ? ['service account'] : [],
    }
  })
  return {
    service: 'password_cracking',
    scopeKey: `password_cracking:${domain}`,
    tool: 'hashcat',
    targets: [domain],
    title: (month) => `Active Directory password audit, ${month}`,
    issues,
    assets,
    audits,
  }
}

/**
 * A share of the full demo year's findings (1 by default): the end-to-end stack seeds a tenth, so
 * the Firestore emulator, which scans a collection for every query and listener, stays quick on a
 * busy machine; the full year is for people and the benchmarks.
 */
export function reportsScale(env: Record<string, string | undefined> = process.env): number {
  const scale = Number(env.SEED_REPORTS_SCALE ?? 1)
  return Number.isFinite(scale) && scale > 0 && scale <= 1 ? scale : 1
}

/** Everything a company's service sees over the year (`share` of it), drawn the same way on every run. */
export function buildUniverse(profile: CompanyProfile, service: ServiceId, share = reportsScale()): ServiceUniverse {
  const random = seededRandom(`${profile.slug}/${service}`)
  const count = Math.round((profile.issues[service] ?? 0) * share)
  switch (service) {
    case 'dast':
      return dastUniverse(profile, random, count)
    case 'network':
      return networkUniverse(profile, random, count)
    case 'cloud':
      return cloudUniverse(profile, random, count)
    case 'projectmariana':
      return marianaUniverse(profile, random, count)
    case 'password_cracking':
      return passwordUniverse(profile, random)
  }
}

export { SEED_NOW }
