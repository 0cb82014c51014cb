import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ntHash } from './nt-hash.ts'
import type { ImportNote } from './parsed-scan.ts'
import { decodePotPassword, readPot, sniffPot, type WantedHashes } from './potfile.ts'
import { textChunks } from './text-source.ts'

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/scans/ntds_potfile/${name}`, import.meta.url), 'utf8')

const everything = (nt: string[], lm: string[] = []): WantedHashes => ({ nt: new Set(nt.map(ntHash)), lm: new Set(lm) })

async function read(text: string, wanted: WantedHashes) {
  const notes: ImportNote[] = []
  const pot = await readPot(textChunks(text, 5), wanted, (note) => notes.push(note))
  return { ...pot, notes }
}

describe('readPot on a hashcat potfile', () => {
  const passwords = ['Winter2024!', '', 'Jsmith2024', 'Jsmith2023', 'Acme:Pass1', 'Grüße€2023', 'Welcome1']

  it('maps NT hashes to passwords: colons kept, $HEX decoded, hashes of any case', async () => {
    const pot = await read(fixture('hashcat.potfile'), everything(passwords))
    expect([...pot.nt.entries()]).toEqual(passwords.map((p) => [ntHash(p), p]))
    expect(pot.tools).toEqual(new Set(['hashcat']))
    expect(pot).toMatchObject({ lines: 9, entries: 8, otherHashes: 1 })
    expect(pot.notes).toEqual([{ level: 'skipped', where: 'pot file line 9', message: 'not an NT or LM hash entry' }])
  })

  it('keeps only the hashes asked for', async () => {
    const pot = await read(fixture('hashcat.potfile'), everything(['Welcome1']))
    expect([...pot.nt.values()]).toEqual(['Welcome1'])
    expect(pot.entries).toBe(8)
  })
})

describe('readPot on a John pot', () => {
  it('reads $NT$ entries and $LM$ halves', async () => {
    const pot = await read(fixture('john.pot'), everything(['Summer19', 'Letmein:2020'], ['e52cac67419a9a22', '4a3b108f3fa6cb6d']))
    expect([...pot.nt.values()]).toEqual(['Summer19', 'Letmein:2020'])
    expect([...pot.lm.entries()]).toEqual([
      ['e52cac67419a9a22', 'PASSWOR'],
      ['4a3b108f3fa6cb6d', 'D'],
    ])
    expect(pot.tools).toEqual(new Set(['john']))
  })

  it('warns when one hash was cracked to two passwords, keeping the first', async () => {
    const hash = ntHash('one')
    const pot = await read(`$NT$${hash}:one\n${hash}:two\n`, { nt: new Set([hash]), lm: new Set() })
    expect(pot.nt.get(hash)).toBe('one')
    expect(pot.notes).toEqual([
      { level: 'warning', where: 'pot file line 2', message: 'a hash cracked twice to different passwords; the first is kept' },
    ])
  })
})

describe('readPot on hostile input', () => {
  it('skips a password field too long to be a password, naming the file as asked', async () => {
    const hash = ntHash('x')
    const notes: ImportNote[] = []
    const pot = await readPot(
      textChunks(`${hash}:${'y'.repeat(2000)}\n`),
      { nt: new Set([hash]), lm: new Set() },
      (n) => notes.push(n),
      'pot file 2',
    )
    expect(pot.nt.size).toBe(0)
    expect(notes).toEqual([{ level: 'skipped', where: 'pot file 2 line 1', message: 'password field longer than 1024 characters' }])
  })
})

describe('decodePotPassword', () => {
  it('decodes $HEX as UTF-8, else Latin-1, and leaves other text alone', () => {
    expect(decodePotPassword('$HEX[3a3a]')).toBe('::')
    expect(decodePotPassword('$HEX[e4]')).toBe('ä')
    expect(decodePotPassword('$HEX[zz]')).toBe('$HEX[zz]')
    expect(decodePotPassword('a:$HEX[41]')).toBe('a:$HEX[41]')
  })
})

describe('sniffPot', () => {
  it('recognises both pot formats and not an NTDS dump', () => {
    expect(sniffPot(fixture('hashcat.potfile'))).toBe(true)
    expect(sniffPot(fixture('john.pot'))).toBe(true)
    expect(sniffPot('{"a":1}')).toBe(false)
  })
})
