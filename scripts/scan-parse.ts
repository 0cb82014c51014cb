// npm run scan:parse -- <file> [--format <name>]
// npm run scan:parse -- <ntds dump> --pot <potfile> [--pot <potfile>] [--company-name <name>] [--policy <length>] [--privileged <file>]
// Prints what the product's importers make of a scanner file (format, tool, times, findings,
// assets, statistics, notes) as JSON, writing nothing: the same parsers the analyst page runs.
// Password audits print derived figures only; their reuse clusters use a random key unless
// SCAN_PARSE_REUSE_KEY (hex, 32 bytes or more) names one.
import { createReadStream } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { detectFormat, parserFor, SCAN_PARSERS } from '#domain/scan-import/formats.ts'
import { SCAN_FORMATS, SNIFF_CHARS, ScanParseError, type ScanFormat } from '#domain/scan-import/parsed-scan.ts'
import { importPasswordAudit } from '#domain/scan-import/password-audit-import.ts'
import { decodeBytes } from '#domain/scan-import/text-source.ts'

const usage = `Usage: npm run scan:parse -- <file> [--format <${SCAN_FORMATS.join('|')}>]
       npm run scan:parse -- <ntds dump> --pot <potfile> [--pot <potfile>] [--company-name <name>] [--policy <length>] [--privileged <file>]`

const text = (path: string) => decodeBytes(createReadStream(path))

async function head(path: string): Promise<string> {
  const file = await open(path)
  try {
    const buffer = Buffer.alloc(SNIFF_CHARS * 4)
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0)
    return new TextDecoder().decode(buffer.subarray(0, bytesRead)).slice(0, SNIFF_CHARS)
  } finally {
    await file.close()
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      pot: { type: 'string', multiple: true },
      'company-name': { type: 'string', multiple: true },
      policy: { type: 'string' },
      privileged: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [path] = positionals
  if (values.help || !path || positionals.length > 1) {
    console.error(usage)
    return values.help ? 0 : 2
  }

  if (values.pot?.length) {
    const envKey = process.env.SCAN_PARSE_REUSE_KEY
    const reuseKey = envKey ? Uint8Array.from(Buffer.from(envKey, 'hex')) : crypto.getRandomValues(new Uint8Array(32))
    if (!envKey) console.error('No SCAN_PARSE_REUSE_KEY: reuse clusters use a random key and will not compare with other audits.')
    const privileged = values.privileged ? (await readFile(values.privileged, 'utf8')).split(/\r?\n/).filter(Boolean) : []
    const result = await importPasswordAudit({
      ntds: text(path),
      pots: values.pot.map(text),
      companyNames: values['company-name'] ?? [],
      policyMinLength: values.policy ? Number(values.policy) : 12,
      privilegedAccounts: privileged,
      reuseKey,
    })
    console.log(JSON.stringify(result, null, 2))
    return 0
  }

  let parser
  if (values.format) {
    parser = parserFor(values.format as ScanFormat)
    if (!parser) {
      console.error(`Unknown format "${values.format}". Known: ${SCAN_PARSERS.map((p) => p.format).join(', ')}`)
      return 2
    }
  } else {
    parser = detectFormat(await head(path))
    if (!parser) {
      console.error(`${path}: not a format the product reads (${SCAN_PARSERS.map((p) => p.label).join(', ')}).`)
      return 1
    }
  }
  const result = await parser.parse(decodeBytes(createReadStream(path), parser.label))
  console.log(JSON.stringify(result, null, 2))
  return 0
}

// exitCode, not exit(): a piped stdout is written out before Node ends.
main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error instanceof ScanParseError ? error.message : error)
    process.exitCode = 1
  },
)
