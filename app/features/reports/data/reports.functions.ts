import { createIsomorphicFn } from '@tanstack/react-start'
import * as v from 'valibot'
import { services, type ServiceId } from '#domain/services.ts'
import type { RouterContext } from '~/core/session'
import { publicConfig } from '~/server/config.server'
import { FirestoreReadDenied } from '~/server/firestore-rest'
import { createFirstPaintCache } from '~/server/first-paint-cache.server'
import { readSession } from '~/server/session.server'
import { readOverview, readServiceReport } from './reports-edge.server'
import { seesResults, visibleServices, type OverviewData, type ServiceReportData } from './report-data'

const ServiceSchema = v.picklist(services.map((s) => s.id) as [ServiceId, ...ServiceId[]])

const firstPaints = createFirstPaintCache()

/**
 * A first read fails quietly to "nothing yet": the page then shows its loading state and the
 * listener reads (and reports a failure) in the browser.
 */
async function quietly<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read()
  } catch (error) {
    if (!(error instanceof FirestoreReadDenied)) console.error('Report figures could not be read at the edge', error)
    return undefined
  }
}

/**
 * The overview for the server's render, read with the user's token; in the browser nothing (the
 * listeners read). Only services the permission module lets the person see are read.
 */
export const overviewFirstPaint = createIsomorphicFn()
  .server(async (context: Pick<RouterContext, 'workspace'>): Promise<OverviewData | undefined> => {
    const workspace = context.workspace
    const company = workspace?.company
    if (!workspace || !company) return undefined
    const current = await readSession()
    if (!current) return undefined
    const visible = visibleServices(workspace.access, company).map((service) => ({
      service,
      results: seesResults(workspace.access, company, service),
    }))
    const key = { uid: current.session.uid, issuedAt: current.issuedAt, what: JSON.stringify(['overview', company, visible]) }
    return quietly(() => firstPaints.get(key, () => readOverview(publicConfig(), current.idToken, company.slug, visible)))
  })
  .client((): OverviewData | undefined => undefined)

/** One service's report for the server's render; in the browser nothing (the listeners read). */
export const serviceReportFirstPaint = createIsomorphicFn()
  .server(async (service: string, context: Pick<RouterContext, 'workspace'>): Promise<ServiceReportData | undefined> => {
    const parsed = v.safeParse(ServiceSchema, service)
    const workspace = context.workspace
    const company = workspace?.company
    if (!parsed.success || !workspace || !company || !visibleServices(workspace.access, company).includes(parsed.output)) return undefined
    const current = await readSession()
    if (!current) return undefined
    // The month in the key: the months shown follow the date.
    const today = new Date()
    const month = today.getUTCFullYear() * 12 + today.getUTCMonth()
    const what = JSON.stringify(['service', company, parsed.output, seesResults(workspace.access, company, parsed.output), month])
    const key = { uid: current.session.uid, issuedAt: current.issuedAt, what }
    return quietly(() => firstPaints.get(key, () => readServiceReport(publicConfig(), current.idToken, company.slug, parsed.output)))
  })
  .client((_service: string, _context: Pick<RouterContext, 'workspace'>): ServiceReportData | undefined => undefined)
