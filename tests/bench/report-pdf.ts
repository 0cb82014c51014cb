// Time to build the PDF report of a service with 10,000 findings, with the same browser build of
// the PDF library the export menu loads, the findings taken in pages of 500 as the export reads
// them. One run, printed; `--out file.pdf` keeps the file.
//   node --experimental-strip-types tests/bench/report-pdf.ts [--out /tmp/report.pdf] [--findings 10000] [--service dast]
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { reportPdfLayout } from '#domain/report-pdf.ts'
import { reportPdfCollector } from '#domain/report-pdf-collector.ts'
import type { ServiceId } from '#domain/services.ts'
import { exportFindings, exportMonths, exportScan, exportStats, T0 } from '../unit/export-fixtures.ts'
import { renderPdfInNode } from '../unit/pdf-render-node.ts'

const { values } = parseArgs({
  options: { out: { type: 'string' }, findings: { type: 'string', default: '10000' }, service: { type: 'string', default: 'dast' } },
})
const count = Number(values.findings)
const service = values.service as ServiceId

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const findings = exportFindings(service, count)
const started = performance.now()
const collector = reportPdfCollector({
  company: { slug: 'acme', name: 'Acme Ltd' },
  service,
  exportedAt: T0 + 41 * 86_400_000,
  stats: exportStats(),
  scan: exportScan(service),
  months: exportMonths(),
  withFindings: true,
  filters: {},
  order: 'Most severe first, then most recently seen',
  // The app's 'date' format (app/ui/local-time.tsx), which Node cannot import from a .tsx file.
  formatDate: (at) => dateFormat.format(at),
})
for (let i = 0; i < findings.length; i += 500) collector.add(findings.slice(i, i + 500))
const doc = reportPdfLayout(collector.digest())
const described = performance.now()
const pdf = await renderPdfInNode(doc)
const done = performance.now()

console.log(
  `report PDF, ${count} ${service} findings: ${Math.round(done - started)} ms (layout description ${Math.round(described - started)} ms, ` +
    `PDF ${Math.round(done - described)} ms), ${(pdf.length / 1024).toFixed(0)} KiB`,
)
if (values.out) writeFileSync(values.out, pdf)
