// testssl.sh's CSV (`--csvfile`): one row per check with the columns of its --jsonfile (id,
// "fqdn/ip", port, severity, finding, cve, cwe, and hint where a version writes it). Read row by row
// and mapped exactly as the JSON is, so the same scan gives the same findings and fingerprints in
// either output.
import { csvRows } from './csv-stream.ts'
import { ScanParseError, type ScanParser } from './parsed-scan.ts'
import { TestsslChecks, type TestsslCheck } from './testssl-json.ts'

const LABEL = 'testssl.sh CSV'

/** The CSV's columns and the --jsonfile fields they hold. */
const COLUMNS: Record<string, keyof TestsslCheck> = {
  id: 'id',
  'fqdn/ip': 'ip',
  port: 'port',
  severity: 'severity',
  finding: 'finding',
  cve: 'cve',
  cwe: 'cwe',
  hint: 'hint',
}

export const testsslCsvParser: ScanParser = {
  format: 'testssl_csv',
  label: LABEL,
  services: ['network', 'projectmariana'],
  sniff(head) {
    return /^"id","fqdn\/ip","port","severity","finding"(?:,"[a-z]+")*\r?(?:\n|$)/.test(head)
  },
  async parse(source) {
    const checks = new TestsslChecks()
    let header: (keyof TestsslCheck | undefined)[] | null = null
    for await (const { cells, line } of csvRows(source, { formatLabel: LABEL, delimiter: ',' })) {
      if (!header) {
        header = cells.map((cell) => COLUMNS[cell.trim()])
        if (!header.includes('id') || !header.includes('severity'))
          throw new ScanParseError(LABEL, `line ${line}`, 'the header has no "id" and "severity" columns')
        continue
      }
      if (cells.length !== header.length) {
        checks.notes.skip(`line ${line}`, `${cells.length} fields where the header has ${header.length}`)
        continue
      }
      const check: TestsslCheck = {}
      header.forEach((field, index) => {
        if (field) check[field] = cells[index]
      })
      checks.add(check, `line ${line}`)
    }
    if (!header) throw new ScanParseError(LABEL, 'line 1', 'the file is empty')
    return checks.result('testssl_csv')
  },
}
