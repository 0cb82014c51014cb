// The demo snapshot: what the seed wrote into the Auth and Firestore emulators, exported by the
// emulators themselves (their hub's export, the one `firebase emulators:export` uses) into
// .local/demo-snapshots/<fingerprint>/. `npm run dev` starts the emulators from it (`--import`)
// instead of writing the demo year again, and seeds only when no snapshot has the fingerprint of
// the seed's code and inputs (docs/decisions/0045-demo-snapshot.md).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import * as v from 'valibot'
import type { Firestore } from 'firebase-admin/firestore'
import { EMULATOR_HOST, EMULATOR_PORTS, LOCAL_DIR, ROOT } from '../firebase/env.ts'
import { withoutBackgroundTriggers } from '../firebase/triggers.ts'
import type { SearchEmulatorConfig } from '../search/config.ts'
import { seedingDay } from './admin-demo.ts'
import { indexStoredFindings } from './reports/seed-reports.ts'
import { refreshDatedDemoData } from './seed.ts'
import { indexTemplateLibrary } from './template-library.ts'

/** Where the snapshots are kept; DEMO_SNAPSHOTS_DIR moves them (the launcher's test keeps its own). */
export const snapshotsDir = (env: NodeJS.ProcessEnv = process.env) => env.DEMO_SNAPSHOTS_DIR || path.join(LOCAL_DIR, 'demo-snapshots')

/** Snapshots kept: the demo year and the tenth of it the e2e suite seeds, and one more. */
const KEPT_SNAPSHOTS = 3

/** The seed's options that change what it writes. */
export const SEED_ENV = ['SEED_REPORTS_SCALE', 'SEED_FINDINGS'] as const

/** Where the seed starts; everything they import from this repository is part of the fingerprint. */
const SEED_ENTRIES = ['emulators/seed/seed.ts', 'emulators/seed/snapshot.ts']
/** Files the seed reads while it runs. */
const SEED_DATA = ['functions/.env.demo-sectest']
const SEED_DATA_DIR = 'emulators/seed'

const MANIFEST_FILE = 'demo-seed.json'
/** The emulators' own export writes this last (firebase-tools' HubExport). */
const EXPORT_METADATA_FILE = 'firebase-export-metadata.json'

const ManifestSchema = v.object({
  fingerprint: v.string(),
  /** The seeding day (UTC midnight, epoch milliseconds) the dated documents count from. */
  seedingDay: v.number(),
  createdAt: v.string(),
})
export type SnapshotManifest = v.InferOutput<typeof ManifestSchema>

// Module specifiers of import and export statements and of dynamic imports.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g

/** The repository file a specifier names, or null for a package or node: builtin. */
export function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(fromFile), specifier)
  // package.json "imports": "#domain/*": "./app/domain/*"
  if (specifier.startsWith('#domain/')) return path.join(ROOT, 'app', 'domain', specifier.slice('#domain/'.length))
  return null
}

/** Every repository source file the entries import, directly or not, with the entries: absolute paths, sorted. */
export function importClosure(entries: readonly string[], read: (file: string) => string | null): string[] {
  const seen = new Set<string>()
  const queue = [...entries]
  while (queue.length > 0) {
    const file = queue.pop() as string
    if (seen.has(file)) continue
    const text = read(file)
    if (text === null) continue
    seen.add(file)
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolveSpecifier(file, match[1] as string)
      if (target && !seen.has(target)) queue.push(target)
    }
  }
  return [...seen].sort()
}

const readOrNull = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

function dataFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
}

export interface FingerprintInputs {
  /** Path (relative to the repository) to content. */
  files: ReadonlyMap<string, string>
  env: Partial<Record<(typeof SEED_ENV)[number], string>>
  /** The emulators' versions: an export is read back by the same ones. */
  tools: readonly string[]
}

/** A short hash of the seed's code, data, options and the emulators that hold what it wrote. */
export function fingerprintOf(inputs: FingerprintInputs): string {
  const hash = createHash('sha256')
  for (const [file, content] of [...inputs.files].sort(([a], [b]) => a.localeCompare(b)))
    hash.update(`file ${file} ${content.length}\n${content}\n`)
  for (const name of SEED_ENV) hash.update(`env ${name}=${inputs.env[name]?.trim() ?? ''}\n`)
  for (const tool of inputs.tools) hash.update(`tool ${tool}\n`)
  return hash.digest('hex').slice(0, 16)
}

/** The seed's inputs as this checkout holds them. `firestoreJar`: the Firestore emulator the launcher runs. */
export function seedInputs(options: { env?: NodeJS.ProcessEnv; firestoreJar?: string } = {}): FingerprintInputs {
  const env = options.env ?? process.env
  const sources = importClosure(
    SEED_ENTRIES.map((file) => path.join(ROOT, file)),
    readOrNull,
  )
  const all = [...sources, ...dataFiles(path.join(ROOT, SEED_DATA_DIR)), ...SEED_DATA.map((file) => path.join(ROOT, file))]
  const files = new Map<string, string>()
  for (const file of all) {
    const content = readOrNull(file)
    if (content !== null) files.set(path.relative(ROOT, file), content)
  }
  const firebaseTools = createRequire(import.meta.url)('firebase-tools/package.json') as { version: string }
  const jar =
    options.firestoreJar && existsSync(options.firestoreJar) ? `${options.firestoreJar} ${statSync(options.firestoreJar).size}` : 'none'
  return {
    files,
    env: Object.fromEntries(SEED_ENV.map((name) => [name, env[name]])),
    tools: [`firebase-tools ${firebaseTools.version}`, `firestore ${jar}`],
  }
}

export type SnapshotState =
  | { kind: 'ready'; dir: string; manifest: SnapshotManifest }
  /** No snapshot of this fingerprint (none yet, or the seed changed since). */
  | { kind: 'missing'; dir: string }

/** The snapshot of `fingerprint` in `root`, when one was written whole. */
export function findSnapshot(root: string, fingerprint: string): SnapshotState {
  const dir = path.join(root, fingerprint)
  const text = readOrNull(path.join(dir, MANIFEST_FILE))
  if (text === null || !existsSync(path.join(dir, EXPORT_METADATA_FILE))) return { kind: 'missing', dir }
  let parsed: ReturnType<typeof v.safeParse<typeof ManifestSchema>>
  try {
    parsed = v.safeParse(ManifestSchema, JSON.parse(text))
  } catch {
    return { kind: 'missing', dir }
  }
  if (!parsed.success || parsed.output.fingerprint !== fingerprint) return { kind: 'missing', dir }
  // Last used: the snapshots used least recently go first.
  const now = new Date()
  utimesSync(path.join(dir, MANIFEST_FILE), now, now)
  return { kind: 'ready', dir, manifest: parsed.output }
}

/** Removes all but the `keep` snapshots used most recently (and any half-written one). */
export function pruneSnapshots(root: string, keep = KEPT_SNAPSHOTS): void {
  if (!existsSync(root)) return
  const used = (dir: string) => {
    try {
      return statSync(path.join(root, dir, MANIFEST_FILE)).mtimeMs
    } catch {
      return -1
    }
  }
  const dirs = readdirSync(root).sort((a, b) => used(b) - used(a))
  for (const [n, dir] of dirs.entries()) if (n >= keep || used(dir) < 0) rmSync(path.join(root, dir), { recursive: true, force: true })
}

/** Asks the emulator hub to export Auth and Firestore into `dir` (replaced whole). */
async function hubExport(dir: string): Promise<void> {
  const hub = process.env.FIREBASE_EMULATOR_HUB ?? `${EMULATOR_HOST}:${EMULATOR_PORTS.hub}`
  const response = await fetch(`http://${hub}/_admin/export`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: dir, initiatedBy: 'npm run dev', targets: ['auth', 'firestore'] }),
    signal: AbortSignal.timeout(300_000),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`The emulators did not export the demo data (${response.status}): ${text}`)
}

/**
 * Exports what the emulators hold as the snapshot of `fingerprint`. The background triggers the
 * seed's writes started (claims, search) finish first, so the snapshot holds their results too.
 */
export async function writeSnapshot(root: string, fingerprint: string, day = seedingDay()): Promise<string> {
  mkdirSync(root, { recursive: true })
  const dir = path.join(root, fingerprint)
  const partial = path.join(root, `${fingerprint}.partial`)
  rmSync(partial, { recursive: true, force: true })
  await withoutBackgroundTriggers(() => hubExport(partial))
  const manifest: SnapshotManifest = { fingerprint, seedingDay: day, createdAt: new Date().toISOString() }
  writeFileSync(path.join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
  rmSync(dir, { recursive: true, force: true })
  renameSync(partial, dir)
  pruneSnapshots(root)
  return dir
}

export interface LoadedSnapshot {
  /** The documents dated from the seeding day were written again: the snapshot is of an earlier day. */
  redated: boolean
  findings: number
  templates: number
}

/**
 * What an import leaves out: the search emulator's indices, built again from the imported
 * documents as the seed builds them, and the documents dated from the seeding day, when the
 * snapshot was taken on another day.
 */
export async function completeSnapshot(db: Firestore, search: SearchEmulatorConfig, manifest: SnapshotManifest): Promise<LoadedSnapshot> {
  const day = seedingDay()
  const redated = manifest.seedingDay !== day
  const [, findings, templates] = await Promise.all([
    redated ? refreshDatedDemoData(db, day) : undefined,
    indexStoredFindings(db, search),
    indexTemplateLibrary(db, search),
  ])
  return { redated, findings, templates }
}
