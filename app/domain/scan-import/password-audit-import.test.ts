import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from './formats.ts'
import { ntHash } from './nt-hash.ts'
import { ScanParseError, type ParsedScan } from './parsed-scan.ts'
import { importPasswordAudit, privilegedName, type PasswordAuditInput } from './password-audit-import.ts'
import { textChunks } from './text-source.ts'

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/scans/ntds_potfile/${name}`, import.meta.url), 'utf8')
const ntds = fixture('acme.ntds')
const hashcat = fixture('hashcat.potfile')
const john = fixture('john.pot')

const KEY = new Uint8Array(32).fill(7)

function audit(overrides: Partial<PasswordAuditInput> = {}): Promise<ParsedScan> {
  return importPasswordAudit({
    ntds: textChunks(ntds, 100),
    pots: [textChunks(hashcat, 100), textChunks(john, 100)],
    companyNames: ['Acme'],
    policyMinLength: 10,
    privilegedAccounts: ['ACME\\bwayne', 'Administrator', 'hlee@acme.local', 'CN=Nobody,OU=Admins,DC=acme,DC=local', 'OTHER\\ckent'],
    reuseKey: KEY,
    ...overrides,
  })
}

const hmacHex = async (key: Uint8Array, hex: string) => {
  const k = await crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const bytes = Uint8Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16))
  return Array.from(new Uint8Array(await crypto.subtle.sign('HMAC', k, bytes)), (b) => b.toString(16).padStart(2, '0')).join('')
}

describe('importPasswordAudit on the ACME fixture', () => {
  // By hand, from acme.ntds with both pot files, policy 10 and the privileged names above:
  // 14 user accounts (2 computer accounts and 5 history entries are not accounts).
  // Cracked 10: Administrator "Winter2024!" (11), Guest blank (0), jsmith "Jsmith2024" (10),
  //   adoe "Acme:Pass1" (10), bwayne "Summer19" (8, John), ckent "Grüße€2023" (10, $HEX),
  //   dprince "Password" (8, from the LM halves, case recovered), fmiller/gmiller/svc_backup "Welcome1" (8).
  // Not cracked 4: krbtgt, eve (LM stored), hlee and ilee (same hash).
  // Privileged: Administrator (named, and RID 500), bwayne, hlee; cracked of them 2. OTHER\ckent is another domain.
  // Below 10 characters: Guest, bwayne, dprince and the three "Welcome1" = 6. Username as password: jsmith.
  // LM hashes: dprince, eve. Reuse clusters: {fmiller, gmiller, svc_backup}, {hlee, ilee}: 2, largest 3;
  //   adoe's current password is its history entry 1.
  // Lengths: 0 ×1, 8 ×5, 10 ×3, 11 ×1. Classes: 1 (blank) ×1, 2 ("Password") ×1,
  //   3 (Jsmith2024, Summer19, Welcome1 ×3) ×5, 4 (Winter2024!, Acme:Pass1, Grüße€2023) ×3.
  // Patterns: season_year 2 (Winter2024!, Summer19), company_name 1, keyboard_walk 0,
  //   word_digits 7 (Winter2024!, Jsmith2024, Summer19, Grüße€2023, Welcome1 ×3), username 1.
  it('gives the service figures computed by hand', async () => {
    const scan = await audit()
    expect(scan.serviceStats).toEqual({
      service: 'password_cracking',
      accountsAudited: 14,
      cracked: 10,
      privilegedCracked: 2,
      policyMinLength: 10,
      belowPolicy: 6,
      usernameAsPassword: 1,
      lmHashes: 2,
      reuseClusters: 2,
      largestReuseCluster: 3,
      lengthHistogram: [1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 3, 1, ...Array(21).fill(0)],
      classCounts: [1, 1, 5, 3],
      patterns: [
        { name: 'season_year', count: 2 },
        { name: 'company_name', count: 1 },
        { name: 'keyboard_walk', count: 0 },
        { name: 'word_digits', count: 7 },
        { name: 'username', count: 1 },
      ],
    })
    expect(scan.statistics).toEqual({
      lines: 36,
      skippedLines: 14,
      accounts: 14,
      disabledAccounts: 2,
      machineAccounts: 2,
      duplicateAccounts: 0,
      historyEntries: 5,
      historyCracked: 2,
      historyLmHashes: 1,
      potEntries: 12,
      potOtherHashes: 1,
      potFilesUnmatched: 0,
      crackedFromLm: 1,
      caseNotRecovered: 0,
      blankPasswords: 1,
      findings: 25,
      notesDropped: 0,
    })
    expect(scan).toMatchObject({
      format: 'ntds_potfile',
      tool: { name: 'secretsdump, hashcat, John the Ripper', version: '0.12.0' },
      targets: ['ACME'],
    })
  })

  it('raises one finding per account and issue, privileged_cracked in place of cracked', async () => {
    const { findings } = await audit()
    const byType = (type: string) => findings.filter((f) => f.ruleId === type).map((f) => f.target.kind === 'account' && f.target.account)
    expect(byType('privileged_cracked')).toEqual(['Administrator', 'bwayne'])
    expect(byType('cracked')).toEqual(['Guest', 'jsmith', 'adoe', 'ckent', 'dprince', 'fmiller', 'gmiller', 'svc_backup'])
    expect(byType('below_policy')).toEqual(['Guest', 'bwayne', 'dprince', 'fmiller', 'gmiller', 'svc_backup'])
    expect(byType('username_as_password')).toEqual(['jsmith'])
    expect(byType('lm_hash')).toEqual(['dprince', 'eve'])
    expect(byType('reused')).toEqual(['adoe', 'fmiller', 'gmiller', 'svc_backup', 'hlee', 'ilee'])
    expect(findings).toHaveLength(25)
    const bwayne = findings.find((f) => f.ruleId === 'privileged_cracked' && f.target.kind === 'account' && f.target.account === 'bwayne')
    expect(bwayne).toMatchObject({
      severity: 'critical',
      target: { kind: 'account', domain: 'ACME', account: 'bwayne' },
      tags: ['password-audit', 'privileged'],
      evidence:
        'Cracked from its NT hash. 8 characters; classes: lower, upper, digit; patterns: Season and year, Word and digits; masked: S*****19.',
      raw: { rid: 1106, enabled: true, crackedFrom: 'pot' },
    })
    expect(findings.find((f) => f.ruleId === 'reused' && f.target.kind === 'account' && f.target.account === 'adoe')?.evidence).toBe(
      'The current password is the same as password history entry 1.',
    )
  })

  it('describes each account with derived figures only', async () => {
    const { assets } = await audit()
    expect(assets).toHaveLength(14)
    expect(assets[0]).toEqual({
      type: 'account',
      value: 'ACME\\Administrator',
      parent: 'ACME',
      account: {
        masked: 'W*****4!',
        cracked: true,
        length: 11,
        classes: ['lower', 'upper', 'digit', 'symbol'],
        patterns: ['season_year', 'word_digits'],
        privileged: true,
        reuseCluster: null,
        reuseCount: 0,
      },
    })
    expect(assets.find((a) => a.value === 'ACME\\dprince')?.account).toMatchObject({
      masked: 'P*****rd',
      length: 8,
      classes: ['lower', 'upper'],
    })
    expect(assets.find((a) => a.value === 'ACME\\hlee')?.account).toMatchObject({
      masked: '(not cracked)',
      cracked: false,
      privileged: true,
      reuseCount: 2,
    })
    expect(assets.find((a) => a.value === 'ACME\\ckent')?.account?.privileged).toBe(false)
  })

  it('names reuse clusters by an HMAC of the NT hash under the company key: stable across audits, different for another key', async () => {
    const first = await audit()
    const again = await audit()
    const other = await audit({ reuseKey: new Uint8Array(32).fill(9) })
    const cluster = (scan: ParsedScan) => scan.assets.find((a) => a.value === 'ACME\\fmiller')?.account?.reuseCluster
    expect(cluster(first)).toBe((await hmacHex(KEY, ntHash('Welcome1'))).slice(0, 32))
    expect(cluster(again)).toBe(cluster(first))
    expect(cluster(other)).not.toBe(cluster(first))
    expect(new Set(first.assets.filter((a) => a.account?.reuseCount === 3).map((a) => a.account?.reuseCluster)).size).toBe(1)
  })

  it('holds no password and no hash of the fixtures anywhere in its result', async () => {
    const json = JSON.stringify(await audit())
    const lower = json.toLowerCase()
    const passwords = ['Winter2024!', 'Jsmith2024', 'Jsmith2023', 'Acme:Pass1', 'Grüße€2023', 'Welcome1', 'Summer19', 'Letmein:2020']
    const others = ['Spring2022!', 'Autumn2021!', 'Reversible#Secret1']
    for (const secret of [...passwords, ...others]) {
      expect(json.includes(secret), secret).toBe(false)
      expect(lower.includes(secret.toLowerCase()), secret).toBe(false)
    }
    // dprince's "Password" (and its LM half "PASSWOR") is also a word of the findings' own texts:
    // in exactly these cases it must not appear, and nowhere outside them.
    expect(json.includes('PASSWOR')).toBe(false)
    const values: string[] = []
    JSON.stringify(await audit(), (key, value) => {
      if (['title', 'description', 'remediation'].includes(key)) return undefined
      if (typeof value === 'string') values.push(value)
      return value
    })
    expect(values.filter((value) => value.includes('Password'))).toEqual([])
    // Every hex run of 16 digits or more in the three files: NT and LM hashes, LM halves, keys.
    const hexes = new Set([ntds, hashcat, john].flatMap((text) => text.match(/[0-9a-fA-F]{16,}/g) ?? []).map((h) => h.toLowerCase()))
    expect(hexes.size).toBeGreaterThan(25)
    for (const hex of hexes) {
      for (let start = 0; start + 16 <= hex.length; start += 16) expect(lower.includes(hex.slice(start, start + 16)), hex).toBe(false)
    }
  })

  it('audits hashes alone without pot files: blank passwords, LM hashes and reuse', async () => {
    const scan = await audit({ pots: [] })
    expect(scan.serviceStats).toMatchObject({ cracked: 1, lmHashes: 2, reuseClusters: 2, largestReuseCluster: 3 })
    expect(scan.tool.name).toBe('secretsdump')
  })

  it("flags a pot file that cracks none of the dump's hashes, apart from one that does", async () => {
    const otherAudit = [ntHash('Tangerine-Harbour-91'), ntHash('Quiet-Lantern-27')].map((hash) => `${hash}:not-this-domain`).join('\n')
    const scan = await audit({ pots: [textChunks(hashcat, 100), textChunks(otherAudit)] })
    expect(scan.statistics.potFilesUnmatched).toBe(1)
    expect(scan.notes).toContainEqual({
      level: 'warning',
      where: 'pot file 2',
      message: 'none of its 2 cracked hashes is in the dump: is it from another audit?',
    })
    expect(scan.notes.some((n) => n.where === 'pot file 1' && n.message.startsWith('none of'))).toBe(false)
  })

  it('reports progress and reaches the total', async () => {
    const seen: string[] = []
    await audit({ onProgress: ({ done, total }) => void seen.push(`${done}/${total}`) })
    expect(seen.at(-1)).toBe('14/14')
  })
})

describe('importPasswordAudit input', () => {
  it('refuses a short raw reuse key and an invalid policy', async () => {
    await expect(audit({ reuseKey: new Uint8Array(8) })).rejects.toThrow(ScanParseError)
    await expect(audit({ policyMinLength: -1 })).rejects.toThrow()
  })

  it('warns about a repeated account and keeps the first', async () => {
    const line = `ACME\\x:1001:aad3b435b51404eeaad3b435b51404ee:${ntHash('x')}:::`
    const scan = await importPasswordAudit({
      ntds: textChunks(`${line}\n${line}\n`),
      pots: [],
      companyNames: [],
      policyMinLength: 8,
      reuseKey: KEY,
    })
    expect(scan.assets).toHaveLength(1)
    expect(scan.notes).toContainEqual({ level: 'warning', where: 'NTDS line 2', message: 'the same account again; the first line is kept' })
  })
})

describe('privilegedName', () => {
  it('reads the forms people paste', () => {
    expect(privilegedName('ACME\\BWayne')).toEqual({ domain: 'acme', account: 'bwayne' })
    expect(privilegedName('bwayne@acme.local')).toEqual({ domain: null, account: 'bwayne' })
    expect(privilegedName('CN=Bruce Wayne,OU=Admins,DC=acme')).toEqual({ domain: null, account: 'bruce wayne' })
    expect(privilegedName('  ')).toBeNull()
  })
})

describe('format registry', () => {
  it('recognises the dump by content, and asks for the pot files when parsed alone', async () => {
    const parser = detectFormat(ntds)
    expect(parser?.format).toBe('ntds_potfile')
    expect(detectFormat(hashcat)).toBeNull()
    await expect(parser!.parse(textChunks(ntds))).rejects.toThrow(ScanParseError)
  })
})
