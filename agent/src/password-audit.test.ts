// The agent's john runner with the real john (Debian's package) on NT hashes made here: what the word
// list holds is cracked, the rest is not, no plaintext file is left, and the derived audit carries no
// hash and no password.
import { readdir, readFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ntHash } from '#domain/scan-import/nt-hash.ts'
import { crackNtHashes, readShow, runPasswordAudit, withoutHashes } from './password-audit.ts'

const passwords = { alice: 'Summer2024!', bob: 'acme', carol: 'correct horse battery staple', dave: 'n0t-in-the-list-Zq9' }
const nt = Object.fromEntries(Object.entries(passwords).map(([user, password]) => [user, ntHash(password)])) as Record<
  keyof typeof passwords,
  string
>
const wordlist = ['letmein', 'Summer2024!', 'acme', 'correct horse battery staple', 'password'].join('\n')
const ntds = Object.entries(nt)
  .map(([user, hash], n) => `ACME\\${user}:${1100 + n}:aad3b435b51404eeaad3b435b51404ee:${hash}:::`)
  .join('\n')
const scratch = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('bulwark-john-'))
const signal = new AbortController().signal

describe('john on the agent', () => {
  it('cracks the NT hashes whose passwords are in the word list, and leaves no plaintext behind', async () => {
    const before = await scratch()
    const cracked = await crackNtHashes(Object.values(nt), wordlist, { maxRunMs: 60_000, signal })
    expect(Object.fromEntries(cracked)).toEqual({ [nt.alice]: passwords.alice, [nt.bob]: passwords.bob, [nt.carol]: passwords.carol })
    expect(await scratch()).toEqual(before)
    const pot = await readFile(path.join(homedir(), '.john', 'john.pot'), 'utf8').catch(() => '')
    for (const hash of Object.values(nt)) expect(pot).not.toContain(hash)
  })

  it('stops john when the job is stopped', async () => {
    const abort = new AbortController()
    abort.abort()
    await expect(crackNtHashes([nt.alice], wordlist, { maxRunMs: 60_000, signal: abort.signal })).rejects.toThrow(/stopped/)
  })

  it('derives the audit with the browser’s module: cracked accounts found, no hash and no password in it', async () => {
    const key = new Uint8Array(32).fill(7)
    const hex = Array.from(key, (b) => b.toString(16).padStart(2, '0')).join('')
    const scan = await runPasswordAudit(
      { ntds, wordlist, companyNames: ['Acme'], policyMinLength: 12, privilegedAccounts: ['ACME\\carol'] },
      hex,
      { maxRunMs: 60_000, signal },
    )
    const issues = scan.findings.map((f) => `${f.ruleId}`)
    expect(issues).toEqual(expect.arrayContaining(['privileged_cracked', 'cracked', 'below_policy']))
    expect(scan.serviceStats).toMatchObject({ service: 'password_cracking' })
    const text = JSON.stringify(scan)
    for (const secret of [...Object.values(nt), ...Object.values(passwords)]) expect(text).not.toContain(secret)
  })

  it('reads john --show and takes the job’s lines out of a pot', () => {
    const wanted = new Set([nt.alice, nt.bob])
    expect(readShow(`${nt.alice}:a:b:c\n${nt.dave}:x\n\n1 password hash cracked, 0 left\n`, wanted)).toEqual(new Map([[nt.alice, 'a:b:c']]))
    expect(withoutHashes(`$3$$${nt.alice}:pw\n$3$$${nt.dave}:other\n`, wanted)).toBe(`$3$$${nt.dave}:other\n`)
  })
})
