import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { crc32 } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ensureFirestoreWrapperJar,
  expectedFirestoreEmulatorVersion,
  FIRESTORE_MAIN_CLASS,
  manifestText,
  readWrapperTarget,
  wrapperJarBytes,
} from './firestore-jar.ts'

// An independent reader of the zip format (end record -> central directory -> local header), so the
// test does not trust the writer's own idea of the layout.
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  expect(end).toBeGreaterThanOrEqual(0)
  const count = zip.readUInt16LE(end + 10)
  let central = zip.readUInt32LE(end + 16)
  const entries = new Map<string, Buffer>()
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(central)).toBe(0x02014b50)
    const method = zip.readUInt16LE(central + 10)
    const crc = zip.readUInt32LE(central + 16)
    const size = zip.readUInt32LE(central + 20)
    const nameLength = zip.readUInt16LE(central + 28)
    const extraLength = zip.readUInt16LE(central + 30)
    const commentLength = zip.readUInt16LE(central + 32)
    const local = zip.readUInt32LE(central + 42)
    const name = zip.subarray(central + 46, central + 46 + nameLength).toString('utf8')
    expect(method).toBe(0)
    expect(zip.readUInt32LE(local)).toBe(0x04034b50)
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const data = zip.subarray(dataStart, dataStart + size)
    expect(crc32(data)).toBe(crc)
    entries.set(name, Buffer.from(data))
    central += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

// Manifest attributes with continuation lines joined back.
function parseManifest(text: string): Map<string, string> {
  const attributes = new Map<string, string>()
  for (const line of text.replaceAll('\r\n ', '').split('\r\n')) {
    const at = line.indexOf(': ')
    if (at > 0) attributes.set(line.slice(0, at), line.slice(at + 2))
  }
  return attributes
}

let scratch: string
let target: string

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'firestore-jar-'))
  // A long path with a space: exercises line wrapping and URL escaping.
  const folder = path.join(scratch, 'google cloud sdk', 'platform', 'cloud-firestore-emulator', 'a'.repeat(40))
  mkdirSync(folder, { recursive: true })
  target = path.join(folder, 'cloud-firestore-emulator.jar')
  writeFileSync(target, 'not really a jar')
})

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('manifestText', () => {
  it('keeps every line within 72 bytes and continues long values on space-led lines', () => {
    const value = `file:///${'x'.repeat(200)}.jar`
    const text = manifestText([['Class-Path', value]])
    expect(text.endsWith('\r\n\r\n')).toBe(true)
    const lines = text.split('\r\n').filter(Boolean)
    expect(lines.length).toBeGreaterThan(2)
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(72)
    for (const line of lines.slice(1)) expect(line.startsWith(' ')).toBe(true)
    expect(parseManifest(text).get('Class-Path')).toBe(value)
  })
})

describe('wrapper jar', () => {
  it('is a zip holding only a manifest with the main class and the class path of the real jar', () => {
    const entries = readZip(wrapperJarBytes(target))
    expect([...entries.keys()]).toEqual(['META-INF/MANIFEST.MF'])
    const manifest = parseManifest(entries.get('META-INF/MANIFEST.MF')?.toString('utf8') ?? '')
    expect(manifest.get('Manifest-Version')).toBe('1.0')
    expect(manifest.get('Main-Class')).toBe(FIRESTORE_MAIN_CLASS)
    expect(manifest.get('Class-Path')).toBe(pathToFileURL(target).href)
    expect(manifest.get('Class-Path')).toContain('google%20cloud%20sdk')
  })

  it('reads back with unzip where it is installed', () => {
    const jar = path.join(scratch, 'check.jar')
    writeFileSync(jar, wrapperJarBytes(target))
    const listing = spawnSync('unzip', ['-t', jar], { encoding: 'utf8' })
    if (listing.error) return // no unzip on this machine: the reader above covers the format
    expect(listing.status).toBe(0)
    const manifest = spawnSync('unzip', ['-p', jar, 'META-INF/MANIFEST.MF'], { encoding: 'utf8' }).stdout
    expect(parseManifest(manifest).get('Main-Class')).toBe(FIRESTORE_MAIN_CLASS)
  })
})

describe('ensureFirestoreWrapperJar', () => {
  it('names the jar after the version firebase-tools expects', () => {
    const require = createRequire(import.meta.url)
    const info = require('firebase-tools/lib/emulator/downloadableEmulatorInfo.json') as { firestore: { version: string } }
    expect(expectedFirestoreEmulatorVersion({})).toBe(info.firestore.version)
    expect(expectedFirestoreEmulatorVersion({ FIRESTORE_EMULATOR_VERSION: '9.9.9' })).toBe('9.9.9')

    const dir = path.join(scratch, 'cache')
    const wrapper = ensureFirestoreWrapperJar({ dir, env: {}, targetJar: target })
    expect(wrapper).toEqual({ dir, jar: path.join(dir, `cloud-firestore-emulator-v${info.firestore.version}.jar`), target })
    expect(readWrapperTarget(wrapper?.jar ?? '')).toBe(target)
  })

  it('keeps a valid wrapper as it is', () => {
    const dir = path.join(scratch, 'kept')
    const first = ensureFirestoreWrapperJar({ dir, env: {}, targetJar: target })
    const jar = first?.jar ?? ''
    const before = statSync(jar).mtimeMs
    const bytes = readFileSync(jar)
    // Without a target, an existing wrapper whose jar still exists is reused without asking gcloud.
    expect(ensureFirestoreWrapperJar({ dir, env: { PATH: '' } })).toEqual(first)
    expect(ensureFirestoreWrapperJar({ dir, env: {}, targetJar: target })).toEqual(first)
    expect(statSync(jar).mtimeMs).toBe(before)
    expect(readFileSync(jar).equals(bytes)).toBe(true)
  })

  it('does nothing without a Cloud CLI emulator to wrap', () => {
    const dir = path.join(scratch, 'none')
    expect(ensureFirestoreWrapperJar({ dir, env: { PATH: '' } })).toBeNull()
    expect(ensureFirestoreWrapperJar({ dir, env: {}, targetJar: null })).toBeNull()
    expect(() => statSync(dir)).toThrow()
  })
})
