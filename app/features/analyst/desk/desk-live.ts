// The desk's listeners, loaded with `import()` (Firestore SDK). Every query names one service, as
// the rules answer per service, and uses an index the report pages already have.
import { limit, orderBy, where } from 'firebase/firestore'
import { findingFromDocument, findingsPath, type Finding } from '#domain/findings.ts'
import { retestFromDocument, retestsPath, type Retest } from '#domain/retests.ts'
import { scanFromDocument, scansPath, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { combine } from '~/core/combine'
import type { Watch } from '~/core/live-data'
import { watchQuery } from '~/core/watch-query'
import { DESK_LIMITS, type DeskData } from './desk-data'

const watchDrafts = (company: string, service: ServiceId): Watch<Scan[]> =>
  watchQuery(
    scansPath(company),
    scanFromDocument,
    where('service', '==', service),
    where('state', '==', 'draft'),
    orderBy('startedAt', 'desc'),
    limit(DESK_LIMITS.drafts),
  )

const watchRecentScans = (company: string, service: ServiceId): Watch<Scan[]> =>
  watchQuery(scansPath(company), scanFromDocument, where('service', '==', service), orderBy('startedAt', 'desc'), limit(DESK_LIMITS.scans))

const watchRequestedRetests = (company: string, service: ServiceId): Watch<Retest[]> =>
  watchQuery(
    retestsPath(company),
    retestFromDocument,
    where('service', '==', service),
    where('state', '==', 'requested'),
    orderBy('requestedAt', 'desc'),
    limit(DESK_LIMITS.retests),
  )

const watchDisputed = (company: string, service: ServiceId): Watch<Finding[]> =>
  watchQuery(
    findingsPath(company),
    findingFromDocument,
    where('service', '==', service),
    where('status', '==', 'disputed'),
    orderBy('lastSeenAt', 'desc'),
    limit(DESK_LIMITS.disputed),
  )

/** The desk of one company, for the services the analyst may import. */
export const watchDesk = (company: string, services: readonly ServiceId[]): Watch<DeskData> =>
  combine(
    Object.fromEntries(
      services.flatMap((service) => [
        [`drafts:${service}`, watchDrafts(company, service)],
        [`scans:${service}`, watchRecentScans(company, service)],
        [`retests:${service}`, watchRequestedRetests(company, service)],
        [`disputed:${service}`, watchDisputed(company, service)],
      ]),
    ),
    (parts) => ({
      company,
      services: services.map((service) => ({
        service,
        drafts: parts[`drafts:${service}`] as Scan[],
        scans: parts[`scans:${service}`] as Scan[],
        retests: parts[`retests:${service}`] as Retest[],
        disputed: parts[`disputed:${service}`] as Finding[],
      })),
    }),
  )
