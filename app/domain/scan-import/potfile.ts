// Cracked hashes: a hashcat potfile (`hash:password`, 16-hex LM halves for mode 3000) or a John the
// Ripper pot (`$NT$hash:password`, `$LM$half:PART`). The password is everything after the first
// colon, so colons inside it stay; `$HEX[…]` is decoded. Only the hashes asked for are kept: a
// team's potfile may hold millions of other engagements' entries.
import { LineNotes } from './line-notes.ts'
import type { ImportNote } from './parsed-scan.ts'
import { numberedLines } from './text-source.ts'

export const POT_LABEL = 'Password pot file'

export type PotTool = 'hashcat' | 'john'

export interface PotFile {
  /** NT hash (lowercase hex) → password. */
  nt: Map<string, string>
  /** LM half (lowercase hex, 16 digits) → its upper-case plaintext part (up to 7 characters). */
  lm: Map<string, string>
  tools: Set<PotTool>
  lines: number
  /** NT and LM entries read, asked for or not. */
  entries: number
  /** Entries of other hash types (NetNTLMv2, Kerberos, bcrypt …), not used by the audit. */
  otherHashes: number
}

export interface WantedHashes {
  nt: ReadonlySet<string>
  lm: ReadonlySet<string>
}

const NT_JOHN = /^\$NT\$([0-9a-fA-F]{32}):/
const LM_JOHN = /^\$LM\$([0-9a-fA-F]{16}):/
const NT_HASHCAT = /^([0-9a-fA-F]{32}):/
const LM_HASHCAT = /^([0-9a-fA-F]{16}):/
const HEX = /^\$HEX\[((?:[0-9a-fA-F]{2})*)\]$/

/** A pot file's password field: `$HEX[…]` decoded as UTF-8, or as Latin-1 when it is not UTF-8 (hashcat hashes bytes). */
export function decodePotPassword(field: string): string {
  const hex = HEX.exec(field)
  if (!hex) return field
  const bytes = new Uint8Array(hex[1]!.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex[1]!.slice(i * 2, i * 2 + 2), 16)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return String.fromCharCode(...bytes)
  }
}

/** Whether a file's start looks like a pot file (John's tags, or hex hashes followed by a colon). */
export function sniffPot(head: string): boolean {
  const lines = head.split('\n', 200).filter((line) => line.trim() !== '')
  return (
    lines.length > 0 && lines.some((line) => NT_JOHN.test(line) || LM_JOHN.test(line) || NT_HASHCAT.test(line) || LM_HASHCAT.test(line))
  )
}

const PATTERNS: { pattern: RegExp; kind: 'nt' | 'lm'; tool: PotTool }[] = [
  { pattern: NT_JOHN, kind: 'nt', tool: 'john' },
  { pattern: LM_JOHN, kind: 'lm', tool: 'john' },
  { pattern: NT_HASHCAT, kind: 'nt', tool: 'hashcat' },
  { pattern: LM_HASHCAT, kind: 'lm', tool: 'hashcat' },
]

function potEntry(line: string): { kind: 'nt' | 'lm'; tool: PotTool; hash: string; field: string } | null {
  for (const { pattern, kind, tool } of PATTERNS) {
    const match = pattern.exec(line)
    if (match) return { kind, tool, hash: match[1]!.toLowerCase(), field: line.slice(match[0].length) }
  }
  return null
}

/** Longer than any password Windows or the crackers take (256): such a field is not a password. */
const MAX_PASSWORD_CHARS = 1024

export async function readPot(
  source: AsyncIterable<string>,
  wanted: WantedHashes,
  onNote: (note: ImportNote) => void,
  /** How notes name the file: "pot file", "pot file 2". */
  name = 'pot file',
): Promise<PotFile> {
  const notes = new LineNotes(onNote, name)
  const pot: PotFile = { nt: new Map(), lm: new Map(), tools: new Set(), lines: 0, entries: 0, otherHashes: 0 }
  for await (const { line, number } of numberedLines(source, POT_LABEL)) {
    pot.lines = number
    if (line.trim() === '') continue
    const entry = potEntry(line)
    if (entry && entry.field.length > MAX_PASSWORD_CHARS) {
      notes.add('skipped', `password field longer than ${MAX_PASSWORD_CHARS} characters`, number)
      continue
    }
    if (!entry) {
      pot.otherHashes++
      notes.add('skipped', 'not an NT or LM hash entry', number)
      continue
    }
    // A run of notes covers alike lines in a row only.
    notes.flush()
    pot.tools.add(entry.tool)
    pot.entries++
    const into = entry.kind === 'nt' ? pot.nt : pot.lm
    if (!(entry.kind === 'nt' ? wanted.nt : wanted.lm).has(entry.hash)) continue
    const password = entry.kind === 'nt' ? decodePotPassword(entry.field) : decodePotPassword(entry.field).toUpperCase()
    const known = into.get(entry.hash)
    if (known === undefined) into.set(entry.hash, password)
    else if (known !== password) notes.add('warning', 'a hash cracked twice to different passwords; the first is kept', number)
  }
  notes.flush()
  return pot
}
