import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { EMPTY_NT, readNtds, sniffNtds } from './ntds.ts'
import { ScanParseError, type ImportNote } from './parsed-scan.ts'
import { textChunks } from './text-source.ts'

const fixture = readFileSync(new URL('../../../tests/fixtures/scans/ntds_potfile/acme.ntds', import.meta.url), 'utf8')

async function read(text: string, chunk = 64) {
  const notes: ImportNote[] = []
  const dump = await readNtds(textChunks(text, chunk), (note) => notes.push(note))
  return { ...dump, notes }
}

describe('readNtds on the fixture', () => {
  it('reads every account line, current and history, and the Impacket version', async () => {
    const dump = await read(fixture)
    expect(dump.version).toBe('0.12.0')
    expect(dump.records).toHaveLength(21)
    expect(dump.records.filter((r) => r.history !== null).map((r) => `${r.account}#${r.history}`)).toEqual([
      'jsmith#0',
      'adoe#0',
      'adoe#1',
      'bwayne#0',
      'eve#0',
    ])
    expect(dump.records.filter((r) => r.machine).map((r) => r.account)).toEqual(['WS01$', 'DC01$'])
    expect(dump.lines).toBe(36)
  })

  it('keeps domain-prefixed and bare names apart, lower-cases hashes and drops the empty LM hash', async () => {
    const { records } = await read(fixture)
    expect(records[0]).toEqual({
      line: 8,
      domain: '',
      account: 'Administrator',
      rid: 500,
      lm: null,
      nt: '7209d1e2b55d242551d2e7aba8604e47',
      history: null,
      machine: false,
      enabled: true,
    })
    expect(records.find((r) => r.account === 'Guest')).toMatchObject({ nt: EMPTY_NT, enabled: false })
    expect(records.find((r) => r.account === 'dprince')).toMatchObject({
      domain: 'ACME',
      rid: 1108,
      lm: 'e52cac67419a9a224a3b108f3fa6cb6d',
      nt: 'a4f49c406510bdcab6824ee7c30fd852',
    })
  })

  it('notes the chatter it skipped, per run, without quoting a line', async () => {
    const { notes, skippedLines } = await read(fixture)
    expect(skippedLines).toBe(14)
    expect(notes).toEqual([
      { level: 'skipped', where: 'NTDS line 1', message: "secretsdump's banner" },
      { level: 'skipped', where: 'NTDS lines 3–7', message: "secretsdump's progress line (5 lines)" },
      { level: 'skipped', where: 'NTDS line 29', message: "secretsdump's progress line" },
      { level: 'skipped', where: 'NTDS lines 30–32', message: 'Kerberos key, not audited (3 lines)' },
      { level: 'skipped', where: 'NTDS line 33', message: "secretsdump's progress line" },
      { level: 'warning', where: 'NTDS line 34', message: 'clear-text secret from reversible encryption, dropped unread' },
      { level: 'warning', where: 'NTDS line 35', message: 'secretsdump reported an error here; the dump may be incomplete' },
      { level: 'skipped', where: 'NTDS line 36', message: "secretsdump's progress line" },
    ])
    expect(JSON.stringify(notes)).not.toContain('Reversible#Secret1')
  })

  it('reads the same whatever the chunk size', async () => {
    expect((await read(fixture, 7)).records).toEqual((await read(fixture, 65_536)).records)
  })
})

describe('readNtds on broken input', () => {
  it('refuses a file without account lines, naming the format', async () => {
    await expect(read('[*] Dumping Domain Credentials\nnot a hash\n')).rejects.toThrow(
      new ScanParseError('secretsdump NTDS', 'whole file', 'no account lines (DOMAIN\\user:RID:LM:NT:::) in the file'),
    )
  })

  it('skips a line whose hash is malformed', async () => {
    const { records, notes } = await read(
      `u1:1001:${'a'.repeat(32)}:${'b'.repeat(32)}:::\nu2:1002:${'a'.repeat(32)}:${'b'.repeat(31)}:::\n`,
    )
    expect(records.map((r) => r.account)).toEqual(['u1'])
    expect(notes).toEqual([{ level: 'skipped', where: 'NTDS line 2', message: 'not an account line (DOMAIN\\user:RID:LM:NT:::)' }])
  })
})

describe('sniffNtds', () => {
  it('recognises secretsdump output and nothing alike', () => {
    expect(sniffNtds(fixture)).toBe(true)
    expect(sniffNtds(`${'a'.repeat(32)}:Password1\n`)).toBe(false)
    expect(sniffNtds('host:22:open\n')).toBe(false)
    expect(sniffNtds('<?xml version="1.0"?><nmaprun/>')).toBe(false)
  })
})
