// A password audit from secretsdump's NTDS output and the pot files of hashcat or John the Ripper.
// It runs in the analyst's browser: the result holds no password and no hash, only what
// `describePassword` derives (masked form, length, classes, pattern tags), privileged membership
// and, for reuse, an HMAC-SHA256 of the NT hash under the company's own key, so clusters compare
// across that company's audits and mean nothing elsewhere.
//
// Decisions:
// - Accounts are the current entries of user accounts. Computer accounts (`NAME$`) have random,
//   rotated passwords and are counted, not audited. History entries (`user_historyN`) are never
//   accounts: an account whose current hash equals one of its own history entries gets a `reused`
//   finding; history entries are counted in `statistics` (read, cracked, with LM) and stay out of
//   the service's figures and of reuse clusters.
// - The NT hash of the empty password counts as cracked (a blank password), pot file or not.
// - An account whose LM halves are both cracked is cracked: the case is taken from the variant
//   whose NT hash matches, else kept upper case with a warning.
// - Privileged: the names given (DOMAIN\user, user or user@domain) and the built-in Administrator (RID 500).
// - Severities: privileged_cracked critical (it replaces `cracked` for that account); cracked and
//   username_as_password high; lm_hash, below_policy and reused medium.
import * as v from 'valibot'
import {
  CHARACTER_CLASSES,
  describePassword,
  PASSWORD_PATTERNS,
  passwordPatternLabels,
  type PasswordDescription,
} from '../password-audit.ts'
import type { ScanStatsOf } from '../scans.ts'
import type { Severity } from '../template-vocabulary.ts'
import { recoverCase } from './nt-hash.ts'
import { EMPTY_NT, NTDS_LABEL, readNtds, sniffNtds, type NtdsRecord } from './ntds.ts'
import {
  PARSE_LIMITS,
  ScanParseError,
  type ImportNote,
  type ParsedAsset,
  type ParsedFinding,
  type ParsedScan,
  type ScanParser,
} from './parsed-scan.ts'
import { readPot, type PotTool } from './potfile.ts'

export const PASSWORD_ISSUES = ['privileged_cracked', 'cracked', 'username_as_password', 'lm_hash', 'below_policy', 'reused'] as const
export type PasswordIssue = (typeof PASSWORD_ISSUES)[number]

const ISSUES: Record<PasswordIssue, { title: string; severity: Severity; cwe: string; description: string; remediation: string }> = {
  privileged_cracked: {
    title: "Privileged account's password cracked",
    severity: 'critical',
    cwe: 'CWE-521',
    description: 'The password of an account with administrative rights in the domain was recovered from its NT hash.',
    remediation:
      'Change the password now, to a long passphrase, and review where the account signs in; consider a tiered administration model.',
  },
  cracked: {
    title: 'Password cracked',
    severity: 'high',
    cwe: 'CWE-521',
    description: "The account's password was recovered from its NT hash with wordlists and rules.",
    remediation: 'Have the user choose a new, longer password; block common and breached passwords at change time.',
  },
  username_as_password: {
    title: 'Username used in the password',
    severity: 'high',
    cwe: 'CWE-521',
    description: "The account's password contains its own username, the first guess of any attacker.",
    remediation: 'Change the password and refuse passwords that contain the username.',
  },
  lm_hash: {
    title: 'LM hash stored',
    severity: 'medium',
    cwe: 'CWE-916',
    description: 'The domain keeps an LM hash of the password, which is cracked in minutes whatever the password.',
    remediation: 'Set "Network security: Do not store LAN Manager hash value on next password change" and have the password changed.',
  },
  below_policy: {
    title: 'Password shorter than the policy minimum',
    severity: 'medium',
    cwe: 'CWE-521',
    description: "The cracked password is shorter than the domain's minimum length: it predates the policy or the policy is not applied.",
    remediation: 'Expire the password so the current policy applies, and check fine-grained password policies.',
  },
  reused: {
    title: 'Password reused',
    severity: 'medium',
    cwe: 'CWE-521',
    description: 'Several accounts share this password, or the account went back to a password it had before.',
    remediation: 'Give each account its own password; enforce password history and a minimum password age.',
  },
}

/** The audit's settings, as the page or a script gives them. */
export const PasswordAuditOptionsSchema = v.object({
  /** The company's names and brands, for the company_name pattern. */
  companyNames: v.pipe(v.array(v.pipe(v.string(), v.trim(), v.maxLength(200))), v.maxLength(100)),
  /** The domain's minimum password length. */
  policyMinLength: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(256)),
  /** Members of privileged groups (Domain Admins, Enterprise Admins …): DOMAIN\user, user or user@domain. */
  privilegedAccounts: v.optional(v.pipe(v.array(v.pipe(v.string(), v.trim(), v.maxLength(512))), v.maxLength(100_000)), []),
  /** The domain of bare names; by default the one domain the dump names, if it names one. */
  domain: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(256))),
})
export type PasswordAuditOptions = v.InferInput<typeof PasswordAuditOptionsSchema>

export interface PasswordAuditProgress {
  /** Accounts derived so far, of `total`. */
  done: number
  total: number
}

export interface PasswordAuditInput extends PasswordAuditOptions {
  ntds: AsyncIterable<string>
  /** hashcat potfiles and John pots, read in turn. */
  pots: readonly AsyncIterable<string>[]
  /** How notes name each pot file (its file name); "pot file 2" when not given. */
  potNames?: readonly string[]
  /** The company's reuse key: an HMAC-SHA256 key, or at least 16 raw bytes. */
  reuseKey: CryptoKey | Uint8Array
  /** Awaited every few hundred accounts, so a page can repaint between them. */
  onProgress?: (progress: PasswordAuditProgress) => void | Promise<void>
}

export const PASSWORD_AUDIT_LABEL = 'secretsdump NTDS with a pot file'

const PROGRESS_EVERY = 250
/** Reuse cluster ids: the first 128 bits of the HMAC, in hex. */
const CLUSTER_ID_CHARS = 32

const hexBytes = (hex: string) => Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16))

async function hmacKey(key: CryptoKey | Uint8Array): Promise<CryptoKey> {
  if (!(key instanceof Uint8Array)) return key
  if (key.length < 16) throw new ScanParseError(PASSWORD_AUDIT_LABEL, 'reuse key', 'shorter than 16 bytes')
  return crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
}

async function clusterId(key: CryptoKey, nt: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, hexBytes(nt))
  return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, CLUSTER_ID_CHARS)
}

/** A pasted name as `domain\account` or `account`, lower case; CN=…, UPNs and quotes reduced to the account. */
export function privilegedName(name: string): { domain: string | null; account: string } | null {
  let text = name.trim().replace(/^["']|["']$/g, '')
  const cn = /^CN=([^,]+)/i.exec(text)
  if (cn) text = cn[1]!
  const slash = text.lastIndexOf('\\')
  const domain = slash >= 0 ? text.slice(0, slash).toLowerCase() : null
  let account = slash >= 0 ? text.slice(slash + 1) : text
  if (account.includes('@')) account = account.slice(0, account.indexOf('@'))
  account = account.trim().toLowerCase()
  return account ? { domain, account } : null
}

interface Account {
  record: NtdsRecord
  domain: string
  privileged: boolean
  history: NtdsRecord[]
  description: PasswordDescription | null
  crackedFrom: 'pot' | 'blank' | 'lm' | null
  reuseCluster: string | null
  reuseCount: number
  /** The history entry whose hash the current password has, if any. */
  historyMatch: number | null
}

/** Reads the dump and the pot files and derives the audit; nothing secret is in what it returns. */
export async function importPasswordAudit(input: PasswordAuditInput): Promise<ParsedScan> {
  const options = v.parse(PasswordAuditOptionsSchema, {
    companyNames: input.companyNames,
    policyMinLength: input.policyMinLength,
    privilegedAccounts: input.privilegedAccounts,
    domain: input.domain,
  })
  const key = await hmacKey(input.reuseKey)
  const notes: ImportNote[] = []
  let notesDropped = 0
  const note = (n: ImportNote) => {
    if (notes.length < PARSE_LIMITS.notes) notes.push(n)
    else notesDropped++
  }

  const dump = await readNtds(input.ntds, note)
  const named = [...new Set(dump.records.map((r) => r.domain).filter(Boolean))]
  const defaultDomain = options.domain ?? (named.length === 1 ? named[0]! : '')
  const domainOf = (record: NtdsRecord) => record.domain || defaultDomain
  const accountKey = (record: NtdsRecord) => `${domainOf(record).toLowerCase()}\\${record.account.toLowerCase()}`

  const privileged = options.privilegedAccounts.map(privilegedName).filter((p) => p !== null)
  const isPrivileged = (record: NtdsRecord) =>
    record.rid === 500 ||
    privileged.some((p) => p.account === record.account.toLowerCase() && (p.domain === null || p.domain === domainOf(record).toLowerCase()))

  const accounts = new Map<string, Account>()
  const history: NtdsRecord[] = []
  let machineAccounts = 0
  let duplicates = 0
  for (const record of dump.records) {
    if (record.machine) {
      if (record.history === null) machineAccounts++
    } else if (record.history !== null) history.push(record)
    else if (accounts.has(accountKey(record))) {
      duplicates++
      note({ level: 'warning', where: `NTDS line ${record.line}`, message: 'the same account again; the first line is kept' })
    } else {
      accounts.set(accountKey(record), {
        record,
        domain: domainOf(record),
        privileged: isPrivileged(record),
        history: [],
        description: null,
        crackedFrom: null,
        reuseCluster: null,
        reuseCount: 0,
        historyMatch: null,
      })
    }
  }
  let orphanHistory = 0
  for (const record of history) {
    const owner = accounts.get(accountKey(record))
    if (owner) owner.history.push(record)
    else orphanHistory++
  }
  if (orphanHistory > 0) {
    note({
      level: 'warning',
      where: 'NTDS',
      message: `${orphanHistory} history entries of accounts not in the dump, counted but not audited`,
    })
  }
  if (machineAccounts > 0) note({ level: 'skipped', where: 'NTDS', message: `${machineAccounts} computer accounts (NAME$), not audited` })

  const wantedNt = new Set([...accounts.values()].map((a) => a.record.nt))
  for (const record of history) wantedNt.add(record.nt)
  const wantedLm = new Set<string>()
  for (const { record } of accounts.values()) if (record.lm) wantedLm.add(record.lm.slice(0, 16)).add(record.lm.slice(16))
  const cracked = new Map<string, string>()
  const lmHalves = new Map<string, string>([['aad3b435b51404ee', '']])
  const tools = new Set<PotTool>()
  let potEntries = 0
  let potOtherHashes = 0
  let potFilesUnmatched = 0
  for (const [index, source] of input.pots.entries()) {
    const name = input.potNames?.[index] ?? (input.pots.length > 1 ? `pot file ${index + 1}` : 'pot file')
    const pot = await readPot(source, { nt: wantedNt, lm: wantedLm }, note, name)
    // Most often a pot file of another audit, or of another domain's dump: worth telling apart
    // from an audit where nothing was cracked.
    if (pot.entries > 0 && pot.nt.size === 0 && pot.lm.size === 0) {
      potFilesUnmatched++
      note({
        level: 'warning',
        where: name,
        message: `none of its ${pot.entries} cracked hashes is in the dump: is it from another audit?`,
      })
    }
    for (const [hash, password] of pot.nt) if (!cracked.has(hash)) cracked.set(hash, password)
    for (const [half, part] of pot.lm) if (!lmHalves.has(half)) lmHalves.set(half, part)
    pot.tools.forEach((tool) => tools.add(tool))
    potEntries += pot.entries
    potOtherHashes += pot.otherHashes
  }

  const historyCracked = history.filter((h) => h.nt === EMPTY_NT || cracked.has(h.nt)).length

  // Each password is described and dropped before the next one is looked up.
  const list = [...accounts.values()]
  let caseNotRecovered = 0
  for (const [index, account] of list.entries()) {
    const { record } = account
    let password = cracked.get(record.nt)
    account.crackedFrom = password !== undefined ? 'pot' : null
    if (password === undefined && record.nt === EMPTY_NT) {
      password = ''
      account.crackedFrom = 'blank'
    }
    if (password === undefined && record.lm) {
      const first = lmHalves.get(record.lm.slice(0, 16))
      const second = lmHalves.get(record.lm.slice(16))
      if (first !== undefined && second !== undefined) {
        const recovered = recoverCase(first + second, record.nt)
        password = recovered ?? first + second
        if (recovered === null) {
          caseNotRecovered++
          note({
            level: 'warning',
            where: `NTDS line ${record.line}`,
            message: 'cracked from its LM hash only; the case could not be recovered',
          })
        }
        account.crackedFrom = 'lm'
      }
    }
    if (password !== undefined) {
      account.description = describePassword(password, { username: record.account, companyNames: options.companyNames })
    }
    const previous = account.history.find((h) => h.nt === record.nt)
    account.historyMatch = previous?.history ?? null
    if ((index + 1) % PROGRESS_EVERY === 0) await input.onProgress?.({ done: index + 1, total: list.length })
  }
  cracked.clear()
  lmHalves.clear()

  const byHash = new Map<string, Account[]>()
  for (const account of list) byHash.set(account.record.nt, [...(byHash.get(account.record.nt) ?? []), account])
  const clusters = [...byHash.entries()].filter(([, members]) => members.length > 1)
  for (const [nt, members] of clusters) {
    const id = await clusterId(key, nt)
    for (const member of members) {
      member.reuseCluster = id
      member.reuseCount = members.length
    }
  }
  await input.onProgress?.({ done: list.length, total: list.length })

  const findings: ParsedFinding[] = []
  const assets: ParsedAsset[] = []
  for (const account of list) {
    const { record, description } = account
    const issues = accountIssues(account, options.policyMinLength)
    for (const issue of issues) {
      const spec = ISSUES[issue]
      findings.push({
        ruleId: issue,
        title: spec.title,
        severity: spec.severity,
        target: { kind: 'account', domain: account.domain, account: record.account },
        cwe: [spec.cwe],
        tags: ['password-audit', ...(account.privileged ? ['privileged'] : [])],
        description: spec.description,
        remediation: spec.remediation,
        evidence: evidence(issue, account),
        raw: { rid: record.rid, enabled: record.enabled, crackedFrom: account.crackedFrom },
      })
    }
    assets.push({
      type: 'account',
      value: account.domain ? `${account.domain}\\${record.account}` : record.account,
      ...(account.domain ? { parent: account.domain } : {}),
      account: {
        masked: description?.masked ?? '(not cracked)',
        cracked: description !== null,
        length: description?.length ?? null,
        classes: description?.classes ?? [],
        patterns: description?.patterns ?? [],
        privileged: account.privileged,
        reuseCluster: account.reuseCluster,
        reuseCount: account.reuseCount,
      },
    })
  }

  const crackedAccounts = list.filter((a) => a.description !== null)
  const lengthHistogram = Array.from({ length: 33 }, () => 0)
  const classCounts = CHARACTER_CLASSES.map(() => 0)
  for (const { description } of crackedAccounts) {
    lengthHistogram[Math.min(32, description!.length)]!++
    classCounts[Math.max(1, description!.classes.length) - 1]!++
  }
  const serviceStats: ScanStatsOf<'password_cracking'> = {
    service: 'password_cracking',
    accountsAudited: list.length,
    cracked: crackedAccounts.length,
    privilegedCracked: crackedAccounts.filter((a) => a.privileged).length,
    policyMinLength: options.policyMinLength,
    belowPolicy: crackedAccounts.filter((a) => a.description!.length < options.policyMinLength).length,
    usernameAsPassword: crackedAccounts.filter((a) => a.description!.patterns.includes('username')).length,
    lmHashes: list.filter((a) => a.record.lm !== null).length,
    reuseClusters: clusters.length,
    largestReuseCluster: Math.max(0, ...clusters.map(([, members]) => members.length)),
    lengthHistogram,
    classCounts,
    patterns: PASSWORD_PATTERNS.map((name) => ({
      name,
      count: crackedAccounts.filter((a) => a.description!.patterns.includes(name)).length,
    })),
  }

  return {
    format: 'ntds_potfile',
    tool: {
      name: ['secretsdump', ...[...tools].sort().map((tool) => (tool === 'john' ? 'John the Ripper' : 'hashcat'))].join(', '),
      version: dump.version,
    },
    startedAt: null,
    finishedAt: null,
    targets: [...new Set(list.map((a) => a.domain).filter(Boolean))],
    findings,
    assets,
    statistics: {
      lines: dump.lines,
      skippedLines: dump.skippedLines,
      accounts: list.length,
      disabledAccounts: list.filter((a) => a.record.enabled === false).length,
      machineAccounts,
      duplicateAccounts: duplicates,
      historyEntries: history.length,
      historyCracked,
      historyLmHashes: history.filter((h) => h.lm !== null).length,
      potEntries,
      potOtherHashes,
      potFilesUnmatched,
      crackedFromLm: list.filter((a) => a.crackedFrom === 'lm').length,
      caseNotRecovered,
      blankPasswords: crackedAccounts.filter((a) => a.description!.length === 0).length,
      findings: findings.length,
      notesDropped,
    },
    serviceStats,
    notes,
  }
}

function accountIssues(account: Account, policyMinLength: number): PasswordIssue[] {
  const { description } = account
  const issues: PasswordIssue[] = []
  if (description) issues.push(account.privileged ? 'privileged_cracked' : 'cracked')
  if (description?.patterns.includes('username')) issues.push('username_as_password')
  if (account.record.lm) issues.push('lm_hash')
  if (description && description.length < policyMinLength) issues.push('below_policy')
  if (account.reuseCount > 1 || account.historyMatch !== null) issues.push('reused')
  return issues
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** What the finding rests on, in derived figures only. */
function evidence(issue: PasswordIssue, account: Account): string {
  const d = account.description
  const how =
    account.crackedFrom === 'blank'
      ? 'The password is blank.'
      : account.crackedFrom === 'lm'
        ? 'Cracked from its LM hash.'
        : 'Cracked from its NT hash.'
  const figures = d
    ? `${plural(d.length, 'character')}; classes: ${d.classes.join(', ') || 'none'}; patterns: ${
        d.patterns.map((p) => passwordPatternLabels[p]).join(', ') || 'none'
      }; masked: ${d.masked}.`
    : ''
  switch (issue) {
    case 'privileged_cracked':
    case 'cracked':
    case 'username_as_password':
    case 'below_policy':
      return `${how} ${figures}`
    case 'lm_hash':
      return d ? `An LM hash is stored. ${how}` : 'An LM hash is stored; it was not cracked in this audit.'
    case 'reused': {
      const parts: string[] = []
      if (account.reuseCount > 1)
        parts.push(`Shares its password with ${plural(account.reuseCount - 1, 'other account')} (reuse cluster ${account.reuseCluster}).`)
      if (account.historyMatch !== null) parts.push(`The current password is the same as password history entry ${account.historyMatch}.`)
      return parts.join(' ')
    }
  }
}

/**
 * The registry's entry: it recognises a dump by content; reading one needs the pot files and the
 * company's reuse key too, which `importPasswordAudit` takes.
 */
export const ntdsPotfileParser: ScanParser = {
  format: 'ntds_potfile',
  label: PASSWORD_AUDIT_LABEL,
  services: ['password_cracking'],
  sniff: sniffNtds,
  parse: () =>
    Promise.reject(
      new ScanParseError(
        NTDS_LABEL,
        'whole file',
        "a password audit also needs the pot files and the company's reuse key (importPasswordAudit)",
      ),
    ),
}
