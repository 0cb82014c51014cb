// A scanner file with bytes that are not UTF-8 is refused as the format it was read as, with the
// line the bytes are on, by every parser (none turns the refusal into another error).
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat, SCAN_PARSERS } from './formats.ts'
import { SNIFF_CHARS } from './parsed-scan.ts'
import { decodeBytes } from './text-source.ts'

const FIXTURES = new URL('../../../tests/fixtures/scans/', import.meta.url)
const CHUNK = 4_096

/** A sample file of the format, whose own content the format is recognised by, of a few lines at least. */
function sample(format: string): Uint8Array | null {
  const dir = new URL(`${format === 'scoutsuite' ? 'scoutsuite_js' : format}/`, FIXTURES)
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => !/\.md$/.test(name))
  } catch {
    return null
  }
  for (const name of names.sort()) {
    const bytes = readFileSync(new URL(name, dir))
    const text = new TextDecoder().decode(bytes)
    if (text.split('\n').length > 4 && detectFormat(text.slice(0, SNIFF_CHARS))?.format === format) return bytes
  }
  return null
}

/** The bytes with two that are never UTF-8 at the start of line `line`. */
function spoiled(bytes: Uint8Array, line: number): Uint8Array {
  let at = 0
  for (let seen = 1; seen < line; seen++) at = bytes.indexOf(0x0a, at) + 1
  return new Uint8Array([...bytes.subarray(0, at), 0xff, 0xfe, ...bytes.subarray(at)])
}

async function* chunks(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  for (let start = 0; start < bytes.length; start += CHUNK) yield bytes.subarray(start, start + CHUNK)
}

describe('a file with bytes that are not UTF-8', () => {
  const readable = SCAN_PARSERS.filter((parser) => parser.format !== 'ntds_potfile')
    .map((parser) => [parser.label, parser, sample(parser.format)] as const)
    .filter(([, , bytes]) => bytes !== null)

  it('has a sample of most formats to spoil', () => {
    expect(readable.length).toBeGreaterThan(SCAN_PARSERS.length - 6)
  })

  it.each(readable)('is refused as %s with the line of the bytes', async (label, parser, bytes) => {
    const line = Math.min(4, new TextDecoder().decode(bytes!).split('\n').length - 1)
    await expect(parser.parse(decodeBytes(chunks(spoiled(bytes!, line)), label))).rejects.toThrow(`${label}, line ${line}: not UTF-8 text`)
  })

  it('reads as U+FFFD when no format is named (a reader that names the line itself)', async () => {
    let text = ''
    for await (const part of decodeBytes(chunks(new Uint8Array([0x61, 0xff, 0x0a])))) text += part
    expect(text).toBe('a\uFFFD\n')
  })
})
