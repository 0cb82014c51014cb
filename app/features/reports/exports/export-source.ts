// Where an export's findings come from: the service's findings, read page by page from the
// database on the plan the page's search gives, with the browser's filters applied to each page.
// The menu asks the count when it opens and the pages when a file is picked.
import type { Finding } from '#domain/findings.ts'
import type { ServiceId } from '#domain/services.ts'
import type { FindingsSearch } from '../findings/findings-search-params'
import { exportPlan } from './export-plan'

/** One page read: how many findings the database gave, and those of them the export holds. */
export interface ExportPage {
  read: number
  findings: Finding[]
}

export interface ExportSource {
  /** The order, in words, and why it is not the table's when it is not. */
  order: string
  orderNote: string | null
  /** Whether `count` is the number of findings the export holds, or the number it reads. */
  exactCount: boolean
  count(): Promise<number>
  pages(signal: AbortSignal): AsyncIterable<ExportPage>
}

export function firestoreExportSource(company: string, service: ServiceId, search: FindingsSearch): ExportSource {
  const plan = exportPlan(search)
  const reads = () => import('./findings-pages')
  return {
    order: plan.order,
    orderNote: plan.orderNote,
    exactCount: plan.exactCount,
    count: async () => (await reads()).countFindings(company, service, plan.segments),
    async *pages(signal) {
      for await (const page of (await reads()).readFindingPages(company, service, plan.segments, signal))
        yield { read: page.read, findings: plan.exactCount ? page.findings : page.findings.filter(plan.keep) }
    },
  }
}
