// The analyst service page's live data in the browser (loaded with `import()`: Firestore SDK):
// the service's scans in every state, a draft's findings, the retests waiting on the analysts
// and the template library to map findings to.
import { collection, limit, onSnapshot, orderBy, query, where } from 'firebase/firestore'
import { retestFromDocument, retestsPath, type Retest } from '#domain/retests.ts'
import { draftFindingFromDocument, draftFindingsPath, type DraftFinding } from '#domain/scan-drafts.ts'
import { scanFromDocument, scansPath, type Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { TEMPLATES_COLLECTION } from '#domain/template-library.ts'
import {
  templateMappingFromDocument,
  TEMPLATE_MAPPINGS_COLLECTION,
  type TemplateChoice,
  type TemplateMapping,
} from '#domain/template-mappings.ts'
import { firestore } from '~/core/firebase'
import type { Watch } from '~/core/live-data'

/** Scans listed on the page, newest first. */
export const SCANS_LISTED = 30
/** Draft findings followed live; a larger draft is reviewed by filtering. */
export const DRAFT_FINDINGS_FOLLOWED = 5_000

export const watchServiceScans =
  (company: string, service: ServiceId): Watch<Scan[]> =>
  (next, fail) =>
    onSnapshot(
      query(
        collection(firestore(), scansPath(company)),
        where('service', '==', service),
        orderBy('startedAt', 'desc'),
        limit(SCANS_LISTED),
      ),
      (snapshot) => next(snapshot.docs.map((d) => scanFromDocument(d.id, d.data())).filter((s): s is Scan => s !== null)),
      fail,
    )

export const watchDraftFindings =
  (company: string, scanId: string): Watch<DraftFinding[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), draftFindingsPath(company, scanId)), limit(DRAFT_FINDINGS_FOLLOWED)),
      (snapshot) => next(snapshot.docs.map((d) => draftFindingFromDocument(d.id, d.data())).filter((f): f is DraftFinding => f !== null)),
      fail,
    )

/** Retest requests of the service waiting on the analysts, the soonest due first. */
export const watchRequestedRetests =
  (company: string, service: ServiceId): Watch<Retest[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), retestsPath(company)), where('service', '==', service), where('state', '==', 'requested')),
      (snapshot) =>
        next(
          snapshot.docs
            .map((d) => retestFromDocument(d.id, d.data()))
            .filter((r): r is Retest => r !== null)
            .sort((a, b) => a.dueAt - b.dueAt),
        ),
      fail,
    )

/** The templates findings may be mapped to (the library is a few hundred entries). */
export const watchTemplateChoices = (): Watch<TemplateChoice[]> => (next, fail) =>
  onSnapshot(
    collection(firestore(), TEMPLATES_COLLECTION),
    (snapshot) =>
      next(
        snapshot.docs
          .map((d) => {
            const data = d.data()
            return {
              slug: d.id,
              title: String(data.title ?? d.id),
              cwe: Array.isArray(data.cwe) ? data.cwe.map(String) : [],
              status: String(data.status ?? 'ready'),
            }
          })
          .filter((t) => t.status !== 'deprecated')
          .sort((a, b) => a.title.localeCompare(b.title)),
      ),
    fail,
  )

/** The service's rule-to-template mappings, by rule. */
export const watchTemplateMappings =
  (service: ServiceId): Watch<TemplateMapping[]> =>
  (next, fail) =>
    onSnapshot(
      query(collection(firestore(), TEMPLATE_MAPPINGS_COLLECTION), where('service', '==', service)),
      (snapshot) =>
        next(
          snapshot.docs
            .map((d) => templateMappingFromDocument(d.id, d.data()))
            .filter((m): m is TemplateMapping => m !== null)
            .sort((a, b) => a.ruleId.localeCompare(b.ruleId)),
        ),
      fail,
    )
