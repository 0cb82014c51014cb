// Offline Firestore emulator: firebase-tools runs `java -jar <cache>/cloud-firestore-emulator-v<x>.jar`
// and downloads that jar when the file is missing. The Google Cloud CLI's component ships the same
// emulator, but its jar has no Main-Class, so a one-entry wrapper jar (manifest only) points Java at
// it. firebase-tools only checks that the file exists: size and checksum are verified on download.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { crc32 } from 'node:zlib'

export const FIRESTORE_MAIN_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore'

const require = createRequire(import.meta.url)

interface DownloadableEmulatorInfo {
  firestore: { version: string }
}

// The version firebase-tools will look for, honouring its own FIRESTORE_EMULATOR_VERSION override.
export function expectedFirestoreEmulatorVersion(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FIRESTORE_EMULATOR_VERSION) return env.FIRESTORE_EMULATOR_VERSION
  const infoPath = require.resolve('firebase-tools/lib/emulator/downloadableEmulatorInfo.json')
  const info = JSON.parse(readFileSync(infoPath, 'utf8')) as DownloadableEmulatorInfo
  return info.firestore.version
}

export function wrapperJarName(version: string): string {
  return `cloud-firestore-emulator-v${version}.jar`
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => {
    if (!dir) return false
    try {
      return statSync(path.join(dir, command)).isFile()
    } catch {
      return false
    }
  })
}

// The jar of the Cloud CLI's cloud-firestore-emulator component, or null without gcloud or the component.
export function findGcloudFirestoreJar(env: NodeJS.ProcessEnv = process.env): string | null {
  if (!onPath(process.platform === 'win32' ? 'gcloud.cmd' : 'gcloud', env)) return null
  const info = spawnSync('gcloud', ['info', '--format=value(installation.sdk_root)'], {
    encoding: 'utf8',
    env: { ...env, CLOUDSDK_CORE_DISABLE_PROMPTS: '1' },
    timeout: 30_000,
    shell: process.platform === 'win32',
  })
  const sdkRoot = info.status === 0 ? info.stdout.trim() : ''
  if (!sdkRoot) return null
  const jar = path.join(sdkRoot, 'platform', 'cloud-firestore-emulator', 'cloud-firestore-emulator.jar')
  return existsSync(jar) ? jar : null
}

// Manifest lines may hold at most 72 bytes; longer values continue on lines starting with a space.
export function manifestText(attributes: ReadonlyArray<readonly [string, string]>): string {
  const lines: string[] = []
  for (const [name, value] of attributes) {
    const bytes = Buffer.from(`${name}: ${value}`, 'utf8')
    let offset = 0
    let width = 72
    while (offset < bytes.length) {
      let end = Math.min(offset + width, bytes.length)
      // Never split a UTF-8 sequence: back off to the start of the character.
      while (end < bytes.length && end > offset && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
      lines.push((offset === 0 ? '' : ' ') + bytes.subarray(offset, end).toString('utf8'))
      offset = end
      width = 71
    }
  }
  return `${lines.join('\r\n')}\r\n\r\n`
}

export interface ZipEntry {
  name: string
  data: Buffer
}

// 1980-01-01 00:00 in DOS format: the same bytes on every run.
const DOS_TIME = 0
const DOS_DATE = (0 << 9) | (1 << 5) | 1

// The fields a zip's local header (from byte 4) and its central directory entry (from byte 6)
// share: version needed 1.0, UTF-8 names, stored, the fixed time, CRC, sizes, name length, no extra.
function sharedHeaderFields(crc: number, size: number, nameLength: number): Buffer {
  const fields = Buffer.alloc(26)
  fields.writeUInt16LE(10, 0)
  fields.writeUInt16LE(0x0800, 2)
  fields.writeUInt16LE(0, 4)
  fields.writeUInt16LE(DOS_TIME, 6)
  fields.writeUInt16LE(DOS_DATE, 8)
  fields.writeUInt32LE(crc, 10)
  fields.writeUInt32LE(size, 14)
  fields.writeUInt32LE(size, 18)
  fields.writeUInt16LE(nameLength, 22)
  return fields
}

// A zip with uncompressed ("stored") entries: enough for a manifest-only jar, no JDK tool needed.
export function createStoredZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const shared = sharedHeaderFields(crc32(entry.data), entry.data.length, name.length)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    shared.copy(local, 4)
    locals.push(local, name, entry.data)

    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // made by: 2.0
    shared.copy(central, 6)
    // comment length, disk number, internal and external attributes: all 0
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)

    offset += local.length + name.length + entry.data.length
  }
  const centralDirectory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(centralDirectory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, centralDirectory, end])
}

export function wrapperJarBytes(targetJar: string): Buffer {
  const manifest = manifestText([
    ['Manifest-Version', '1.0'],
    ['Main-Class', FIRESTORE_MAIN_CLASS],
    // An absolute file: URL; Class-Path entries are URLs, so spaces and the like arrive escaped.
    ['Class-Path', pathToFileURL(targetJar).href],
  ])
  return createStoredZip([{ name: 'META-INF/MANIFEST.MF', data: Buffer.from(manifest, 'utf8') }])
}

export interface FirestoreWrapper {
  // The folder to pass as FIREBASE_EMULATORS_PATH.
  dir: string
  jar: string
  target: string
}

export interface EnsureWrapperOptions {
  dir: string
  env?: NodeJS.ProcessEnv
  // Where the real emulator jar is; found through gcloud when absent.
  targetJar?: string | null
}

// The jar an existing wrapper points at, when that jar still exists. The wrapper is stored
// uncompressed, so its manifest can be read straight from the file's bytes.
export function readWrapperTarget(jar: string): string | null {
  if (!existsSync(jar)) return null
  const match = /Class-Path: ((?:[^\r\n]|\r\n )+)/.exec(readFileSync(jar).toString('latin1'))
  if (!match?.[1]) return null
  try {
    const target = fileURLToPath(match[1].replaceAll('\r\n ', ''))
    return existsSync(target) ? target : null
  } catch {
    return null
  }
}

// Writes (or keeps) the wrapper jar; null when there is no Cloud CLI emulator to wrap, in which case
// firebase-tools downloads its own jar into its usual cache.
export function ensureFirestoreWrapperJar(options: EnsureWrapperOptions): FirestoreWrapper | null {
  const env = options.env ?? process.env
  const jar = path.join(options.dir, wrapperJarName(expectedFirestoreEmulatorVersion(env)))
  if (options.targetJar === undefined) {
    // A valid wrapper saves the `gcloud info` call (about a second).
    const kept = readWrapperTarget(jar)
    if (kept) return { dir: options.dir, jar, target: kept }
  }
  const target = options.targetJar === undefined ? findGcloudFirestoreJar(env) : options.targetJar
  if (!target) return null
  const bytes = wrapperJarBytes(target)
  if (!existsSync(jar) || !readFileSync(jar).equals(bytes)) {
    mkdirSync(options.dir, { recursive: true })
    // Written aside then renamed, so a concurrent firebase-tools never sees half a jar.
    const partial = `${jar}.${process.pid}.partial`
    writeFileSync(partial, bytes)
    renameSync(partial, jar)
  }
  return { dir: options.dir, jar, target }
}
