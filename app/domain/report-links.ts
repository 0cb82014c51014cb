// Where a link into the reports lands: a service's report at a chosen scan, its findings narrowed
// or ordered, or one finding's page. Written as the address bar holds it (the report's route
// validates the same keys: ScanChoiceSchema and FindingsSearchSchema), so a notification the
// functions store, a dashboard line and a page's link all land on the place they name.
import type { FindingSort } from './finding-sorts.ts'
import type { FindingStatus } from './finding-statuses.ts'
import type { Severity } from './template-vocabulary.ts'

/** A place in a service's report: the scan shown and the findings table's filters and order. */
export interface ReportPlace {
  scan?: string | null
  severity?: readonly Severity[]
  status?: readonly FindingStatus[]
  sort?: FindingSort
}

/** As the router writes a value: text that would read back as something else (a number, "true") as JSON. */
function searchValue(text: string): string {
  try {
    return JSON.parse(text) === text ? text : JSON.stringify(text)
  } catch {
    return text
  }
}

/** `/reports/dast?scan=dast-2026-11&severity=critical`: the report at that place. */
export function reportLink(service: string, place: ReportPlace = {}): string {
  const params = new URLSearchParams()
  if (place.scan) params.append('scan', searchValue(place.scan))
  for (const severity of place.severity ?? []) params.append('severity', severity)
  for (const status of place.status ?? []) params.append('status', status)
  if (place.sort) params.append('sort', place.sort)
  const search = params.toString()
  return `/reports/${encodeURIComponent(service)}${search ? `?${search}` : ''}`
}

/** One finding's own page, under its service's report. */
export const findingLink = (service: string, findingId: string): string =>
  `/reports/${encodeURIComponent(service)}/${encodeURIComponent(findingId)}`
