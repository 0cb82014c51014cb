// secretsdump's NTDS output (Impacket): `[DOMAIN\]user[_historyN]:RID:LMHASH:NTHASH:::` per
// account, with optional `(status=…)` and `(pwdLastSet=…)` suffixes, amid the tool's own lines
// (banner, `[*]` progress, Kerberos keys, clear-text secrets), which are skipped with a note that
// never quotes them.
import { LineNotes } from './line-notes.ts'
import { ScanParseError, type ImportNote } from './parsed-scan.ts'
import { numberedLines } from './text-source.ts'

export const NTDS_LABEL = 'secretsdump NTDS'

/** The LM hash of an empty password: what secretsdump prints when no LM hash is stored. */
export const EMPTY_LM = 'aad3b435b51404eeaad3b435b51404ee'
/** The NT hash of an empty password. */
export const EMPTY_NT = '31d6cfe0d16ae931b73c59d7e0c089c0'

export interface NtdsRecord {
  line: number
  /** As the file writes it (NetBIOS or DNS name); '' for bare names. */
  domain: string
  /** sAMAccountName, without the `_historyN` suffix. */
  account: string
  rid: number
  /** Lowercase hex; null when no LM hash is stored. */
  lm: string | null
  /** Lowercase hex. */
  nt: string
  /** Which previous password (0 = the one before the current), or null for the current one. */
  history: number | null
  /** Computer accounts (`NAME$`). */
  machine: boolean
  /** From `(status=Enabled|Disabled)` when secretsdump ran with -user-status. */
  enabled: boolean | null
}

export interface NtdsDump {
  records: NtdsRecord[]
  /** Impacket's version from its banner, '' when the banner was not kept. */
  version: string
  lines: number
  skippedLines: number
}

// sAMAccountName cannot hold `\` or `:`, so neither part can swallow a separator.
const RECORD = /^(?:([^\\:]{1,256})\\)?([^\\:]{1,256}):(\d{1,10}):([0-9a-fA-F]{32}):([0-9a-fA-F]{32}):::(.*)$/
const HISTORY = /^(.+)_history(\d{1,3})$/
const BANNER = /^Impacket v(\S{1,40})/
const KERBEROS_KEY = /^[^:]{1,512}:(?:aes\d+-cts-hmac-sha1-96|des-cbc-md5|des-cbc-crc|rc4[-_]hmac|0x[0-9a-f]+):[0-9a-fA-F]+$/
const CLEARTEXT = /^[^:]{1,512}:CLEARTEXT:/
const STATUS = /\(status=(Enabled|Disabled)\)/i

/** Whether a file's start holds secretsdump account lines. */
export function sniffNtds(head: string): boolean {
  return head.split('\n', 200).some((line) => RECORD.test(line.replace(/\r$/, '')))
}

/** Reads every account line; notes go to `onNote`, counted per run of alike lines. */
export async function readNtds(source: AsyncIterable<string>, onNote: (note: ImportNote) => void): Promise<NtdsDump> {
  const notes = new LineNotes(onNote, 'NTDS')
  const records: NtdsRecord[] = []
  let version = ''
  let lines = 0
  let skippedLines = 0
  const skip = (level: ImportNote['level'], message: string, line: number) => {
    skippedLines++
    notes.add(level, message, line)
  }
  for await (const { line, number } of numberedLines(source, NTDS_LABEL)) {
    lines = number
    const text = line.trim()
    if (text === '') continue
    const record = RECORD.exec(text)
    if (record) {
      // A run of notes covers alike lines in a row only.
      notes.flush()
      const [, domain = '', name = '', rid = '', lm = '', nt = '', rest = ''] = record
      const history = HISTORY.exec(name)
      const account = history ? history[1]! : name
      const status = STATUS.exec(rest)?.[1]?.toLowerCase()
      records.push({
        line: number,
        domain,
        account,
        rid: Number(rid),
        lm: lm.toLowerCase() === EMPTY_LM ? null : lm.toLowerCase(),
        nt: nt.toLowerCase(),
        history: history ? Number(history[2]) : null,
        machine: account.endsWith('$'),
        enabled: status === undefined ? null : status === 'enabled',
      })
      continue
    }
    const banner = BANNER.exec(text)
    if (banner) {
      version = banner[1]!.replace(/[^\w.+-]/g, '')
      skip('skipped', "secretsdump's banner", number)
    } else if (text.startsWith('[*]')) skip('skipped', "secretsdump's progress line", number)
    else if (text.startsWith('[-]') || text.startsWith('[!]'))
      skip('warning', 'secretsdump reported an error here; the dump may be incomplete', number)
    else if (KERBEROS_KEY.test(text)) skip('skipped', 'Kerberos key, not audited', number)
    else if (CLEARTEXT.test(text)) skip('warning', 'clear-text secret from reversible encryption, dropped unread', number)
    else skip('skipped', 'not an account line (DOMAIN\\user:RID:LM:NT:::)', number)
  }
  notes.flush()
  if (records.length === 0) throw new ScanParseError(NTDS_LABEL, 'whole file', 'no account lines (DOMAIN\\user:RID:LM:NT:::) in the file')
  return { records, version, lines, skippedLines }
}
