// A company's SLA deadline for findings known to be exploited, followed from its document: the
// company the workspace holds carries only its name and switches.
import { companyPath, kevSlaDaysOf } from '#domain/companies.ts'
import type { Watch } from '~/core/live-data'
import { watchDocument } from '~/core/watch-query'

export const watchKevSlaDays = (slug: string): Watch<number | null> => watchDocument(companyPath(slug), (_id, data) => kevSlaDaysOf(data))
