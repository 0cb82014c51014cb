import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT } from '../firebase/env.ts'
import { findSnapshot, fingerprintOf, importClosure, pruneSnapshots, seedInputs, type FingerprintInputs } from './snapshot.ts'

const file = (relative: string) => path.join(ROOT, relative)

describe('importClosure', () => {
  it('follows relative and #domain imports, static, re-exported and dynamic, and leaves packages out', () => {
    const sources = new Map([
      [file('emulators/seed/a.ts'), "import { b } from './b.ts'\nimport type { X } from '#domain/x.ts'\nimport * as v from 'valibot'"],
      [file('emulators/seed/b.ts'), "export { c } from '../c.ts'\nconst d = await import('./d.ts')\nimport 'node:fs'"],
      [file('emulators/c.ts'), "import { b } from './seed/b.ts'"],
      [file('emulators/seed/d.ts'), ''],
      [file('app/domain/x.ts'), "import { y } from './y.ts'"],
      [file('app/domain/y.ts'), ''],
      [file('app/domain/unrelated.ts'), ''],
    ])
    expect(importClosure([file('emulators/seed/a.ts')], (f) => sources.get(f) ?? null)).toEqual(
      ['app/domain/x.ts', 'app/domain/y.ts', 'emulators/c.ts', 'emulators/seed/a.ts', 'emulators/seed/b.ts', 'emulators/seed/d.ts']
        .map(file)
        .sort(),
    )
  })
})

describe('fingerprintOf', () => {
  const inputs: FingerprintInputs = {
    files: new Map([
      ['emulators/seed/seed.ts', 'seed'],
      ['app/domain/findings.ts', 'findings'],
    ]),
    env: {},
    tools: ['firebase-tools 1.0.0'],
  }

  it('changes with any file of the seed, its options and the emulators, and only with them', () => {
    const base = fingerprintOf(inputs)
    expect(base).toMatch(/^[0-9a-f]{16}$/)
    expect(fingerprintOf({ ...inputs, files: new Map([...inputs.files].reverse()) })).toBe(base)
    expect(fingerprintOf({ ...inputs, env: { SEED_REPORTS_SCALE: ' ' } })).toBe(base)
    const changed = [
      { ...inputs, files: new Map([...inputs.files, ['app/domain/findings.ts', 'findings, changed']]) },
      { ...inputs, files: new Map([...inputs.files, ['emulators/seed/fleet.ts', '']]) },
      { ...inputs, env: { SEED_REPORTS_SCALE: '0.1' } },
      { ...inputs, env: { SEED_FINDINGS: '100000' } },
      { ...inputs, tools: ['firebase-tools 1.0.1'] },
    ].map(fingerprintOf)
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1)
  })

  it("of this checkout covers the seed's code, the domain code it imports and its data, not its tests", () => {
    const files = [...seedInputs({ env: {} }).files.keys()]
    expect(files).toEqual(
      expect.arrayContaining([
        'emulators/seed/seed.ts',
        'emulators/seed/reports/seed-reports.ts',
        'emulators/seed/reports/universe.ts',
        'app/domain/findings.ts',
        'emulators/seed/finding-templates/dast.json',
        'functions/.env.demo-sectest',
      ]),
    )
    expect(files.filter((f) => f.endsWith('.test.ts'))).toEqual([])
  })
})

describe('snapshots on disk', () => {
  let root = ''
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  function snapshot(fingerprint: string, manifest: object | null, exported = true, usedAt = Date.now()): string {
    const dir = path.join(root, fingerprint)
    mkdirSync(dir, { recursive: true })
    if (exported) writeFileSync(path.join(dir, 'firebase-export-metadata.json'), '{}')
    if (manifest) {
      writeFileSync(path.join(dir, 'demo-seed.json'), JSON.stringify(manifest))
      utimesSync(path.join(dir, 'demo-seed.json'), new Date(usedAt), new Date(usedAt))
    }
    return dir
  }
  const manifest = (fingerprint: string) => ({ fingerprint, seedingDay: 0, createdAt: '2026-11-20T00:00:00Z' })

  it('finds only a whole snapshot of the same fingerprint', () => {
    root = mkdtempSync(path.join(tmpdir(), 'snapshots-'))
    expect(findSnapshot(root, 'aaaa').kind).toBe('missing')
    snapshot('aaaa', manifest('aaaa'))
    expect(findSnapshot(root, 'aaaa')).toEqual({ kind: 'ready', dir: path.join(root, 'aaaa'), manifest: manifest('aaaa') })
    // A folder renamed by hand, a manifest of another seed, an export that did not finish, a broken manifest.
    snapshot('bbbb', manifest('aaaa'))
    snapshot('cccc', manifest('cccc'), false)
    snapshot('dddd', { fingerprint: 'dddd' })
    for (const fingerprint of ['bbbb', 'cccc', 'dddd']) expect(findSnapshot(root, fingerprint).kind).toBe('missing')
  })

  it('keeps the snapshots used last and drops half-written ones', () => {
    root = mkdtempSync(path.join(tmpdir(), 'snapshots-'))
    const hour = 3_600_000
    for (const [n, fingerprint] of ['a', 'b', 'c', 'd'].entries()) snapshot(fingerprint, manifest(fingerprint), true, Date.now() - n * hour)
    snapshot('e.partial', null)
    // Using the oldest makes it the newest.
    findSnapshot(root, 'd')
    pruneSnapshots(root, 3)
    expect(readdirSync(root).sort()).toEqual(['a', 'b', 'd'])
  })
})
