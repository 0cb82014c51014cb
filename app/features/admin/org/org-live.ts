// The administration pages' listeners. Loaded with `import()` (Firestore SDK).
import { collection, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import { companyFromDocument, companyPath, type Company } from '#domain/companies.ts'
import { AUDIT_EVENTS_COLLECTION, auditEventFromDocument, type AuditEvent } from '#domain/audit-events.ts'
import { API_TOKENS_COLLECTION, apiTokenFromDocument, type ApiToken } from '#domain/api-tokens.ts'
import { DAST_KEYS_COLLECTION, dastKeyFromDocument, type DastKey } from '#domain/dast-keys.ts'
import { scanScopeFromDocument, scanScopePath, type ScopeEntry } from '#domain/scan-scope.ts'
import { catalogueFrom, SERVICES_COLLECTION, type ServiceCatalogueEntry } from '#domain/service-catalogue.ts'
import { unknownYet } from '~/core/cache-snapshots'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'
import { watchDocument, watchPages, type Paged } from '~/core/watch-query'

/** Audit events a page of the trail holds, newest first. */
export const AUDIT_PAGE = 50

/**
 * The company's scan scope. A scope missing from the cache while the database is out of reach is
 * unknown, not empty: the DAST key form would otherwise refuse every target (it waits instead).
 */
export const watchScanScope = (company: string): Watch<ScopeEntry[]> => {
  const scope = watchDocument(scanScopePath(company), (_id, data) => scanScopeFromDocument(data))
  return (next, fail) => scope((entries) => next(entries ?? []), fail)
}

/** One company as its page reads it: null once the server says there is none the reader may see. */
export const watchCompany = (slug: string): Watch<Company | null> => watchDocument(companyPath(slug), companyFromDocument)

/**
 * The company's audit events, newest first, a page at a time. Every company event is for the
 * analysts' audience too; asking for it lets the rules admit senior analysts as well as platform
 * and company admins.
 */
export const watchCompanyAudit = (company: string): Watch<Paged<AuditEvent>> =>
  watchPages(
    AUDIT_EVENTS_COLLECTION,
    auditEventFromDocument,
    AUDIT_PAGE,
    where('companyId', '==', company),
    where('audience', '==', 'analysts'),
    orderBy('createdAt', 'desc'),
  )

/** Snapshots whose metadata alone changed too: the server's confirmation of an empty list the cache alone gave. */
const withServerAnswers = { includeMetadataChanges: true } as const

export const watchCatalogue: Watch<ServiceCatalogueEntry[]> = (next, fail) =>
  onSnapshot(
    collection(firestore(), SERVICES_COLLECTION),
    withServerAnswers,
    (snapshot) => {
      if (!unknownYet(snapshot, snapshot.empty)) next(catalogueFrom(new Map(snapshot.docs.map((d) => [d.id, d.data()]))))
    },
    fail,
  )

export const watchDastKeys =
  (company: string): Watch<DastKey[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), DAST_KEYS_COLLECTION), where('company', '==', company), orderBy('createdAt', 'desc')),
      withServerAnswers,
      (snapshot) => {
        if (unknownYet(snapshot, snapshot.empty)) return
        next(snapshot.docs.flatMap((d) => dastKeyFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? []))
      },
      fail,
    )

export const watchApiTokens =
  (company: string): Watch<ApiToken[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), API_TOKENS_COLLECTION), where('company', '==', company), orderBy('createdAt', 'desc')),
      withServerAnswers,
      (snapshot) => {
        if (unknownYet(snapshot, snapshot.empty)) return
        next(snapshot.docs.flatMap((d) => apiTokenFromDocument(d.id, d.data({ serverTimestamps: 'estimate' })) ?? []))
      },
      fail,
    )
