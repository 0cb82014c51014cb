// Every Firestore query the product runs, by the declaration that builds it (browser listeners and
// reads, the edge's REST queries, the functions): one entry per shape, so a filter added only in
// some cases makes two. The coverage test checks each entry against its site in the source and
// checks firestore.indexes.json against all of them (decision 0036).
import type { Direction, FilterOp, QueryShape, Scope } from './firestore-index-rules'

export interface CataloguedQuery extends QueryShape {
  /** `file#top-level declaration` that builds the query */
  site: string
}

type On = { collection: string; scope: Scope }
type Clause = { filter: { field: string; op: FilterOp } } | { order: { field: string; direction: Direction } }

const collection = (id: string): On => ({ collection: id, scope: 'COLLECTION' })
const group = (id: string): On => ({ collection: id, scope: 'COLLECTION_GROUP' })
const where = (field: string, op: FilterOp): Clause => ({ filter: { field, op } })
const orderBy = (field: string, direction: Direction = 'asc'): Clause => ({ order: { field, direction } })
const byId = '__name__'

/** The queries of one file: [declaration, collection, ...clauses]. */
const file = (path: string, entries: [string, On, ...Clause[]][]): CataloguedQuery[] =>
  entries.map(([name, on, ...clauses]) => ({
    site: `${path}#${name}`,
    ...on,
    filters: clauses.flatMap((c) => ('filter' in c ? [c.filter] : [])),
    orderBy: clauses.flatMap((c) => ('order' in c ? [c.order] : [])),
  }))

export const QUERIES: CataloguedQuery[] = [
  // The browser (firebase/firestore).
  ...file('app/features/activity/activity-live.ts', [
    ['watchActivity', collection('events'), where('createdByUid', '=='), orderBy('createdAt', 'desc')],
  ]),
  ...file('app/features/admin/email-keys/email-keys-live.ts', [['watchEmailKeys', collection('email_keys'), orderBy('createdAt', 'desc')]]),
  ...file('app/features/admin/hub/admin-hub-live.ts', [
    ['watchPeopleCount', collection('users_access'), where('companies', 'array-contains')],
    ['watchExpiringKeys', collection('email_keys'), where('revokedAt', '=='), where('expiresAt', '>'), where('expiresAt', '<=')],
    ['watchAuditEvents', collection('audit_events'), orderBy('createdAt', 'desc')],
    ['watchAuditEvents', collection('audit_events'), where('audience', '=='), orderBy('createdAt', 'desc')],
    ['watchAuditEvents', collection('audit_events'), where('companyId', '=='), orderBy('createdAt', 'desc')],
  ]),
  ...file('app/features/admin/org/org-live.ts', [
    ['watchCompanyAudit', collection('audit_events'), where('companyId', '=='), where('audience', '=='), orderBy('createdAt', 'desc')],
    ['watchDastKeys', collection('dast_keys'), where('company', '=='), orderBy('createdAt', 'desc')],
    ['watchApiTokens', collection('api_tokens'), where('company', '=='), orderBy('createdAt', 'desc')],
  ]),
  ...file('app/features/admin/webhooks/webhooks-live.ts', [
    ['watchWebhookEndpoints', collection('webhook_endpoints'), where('company', '=='), orderBy('createdAt', 'desc')],
    // An endpoint's delivery log, newest first, a page at a time (the company too, for the rules).
    [
      'watchWebhookDeliveries',
      collection('webhook_deliveries'),
      where('company', '=='),
      where('endpointId', '=='),
      orderBy('createdAt', 'desc'),
    ],
  ]),
  ...file('app/features/analyst/desk/desk-live.ts', [
    ['watchDrafts', collection('scans'), where('service', '=='), where('state', '=='), orderBy('startedAt')],
    ['watchDrafts', collection('scans'), where('service', '=='), where('state', '==')],
    ['watchRecentScans', collection('scans'), where('service', '=='), orderBy('startedAt', 'desc')],
    ['watchRequestedRetests', collection('retests'), where('service', '=='), where('state', '=='), orderBy('dueAt')],
    ['watchRequestedRetests', collection('retests'), where('service', '=='), where('state', '==')],
    ['watchRequestedRetests', collection('retests'), where('service', '=='), where('state', '=='), where('dueAt', '<')],
    ['watchDisputed', collection('findings'), where('service', '=='), where('status', '=='), orderBy('lastSeenAt', 'desc')],
    ['watchDisputed', collection('findings'), where('service', '=='), where('status', '==')],
  ]),
  ...file('app/features/analyst/service-page/analyst-live.ts', [
    ['watchServiceScans', collection('scans'), where('service', '=='), orderBy('startedAt', 'desc')],
    // The draft review: pages of one severity at a time in document order, kept to those without a
    // template or the false positives, and to one rule, or not; and the counts of the same (the
    // severity held fixed or not), besides the whole draft's (no filter: no index).
    ...[[], [where('templateSlug', '=='), where('falsePositive', '=='), where('mergedInto', '==')], [where('falsePositive', '==')]]
      .flatMap((show) => [show, [...show, where('ruleId', '==')]])
      .flatMap((kept): [string, On, ...Clause[]][] => [
        ['watchDraftFindings', collection('draft_findings'), where('severity', '=='), ...kept, orderBy(byId)],
        ['watchDraftFindings', collection('draft_findings'), where('severity', '=='), ...kept],
        ...(kept.length > 0 ? [['watchDraftFindings', collection('draft_findings'), ...kept] as [string, On, ...Clause[]]] : []),
      ]),
    // The findings merged into one, listed in its detail panel.
    ['watchMergedFindings', collection('draft_findings'), where('mergedInto', '=='), orderBy(byId)],
    ['watchRequestedRetests', collection('retests'), where('service', '=='), where('state', '=='), orderBy('dueAt')],
    ['watchTemplateMappings', collection('template_mappings'), where('service', '==')],
    ['watchScanJobs', collection('scan_jobs'), where('company', '=='), where('service', '=='), orderBy('createdAt', 'desc')],
  ]),
  ...file('app/features/dashboard/dashboard-live.ts', [
    ['watchDashboard', collection('activity'), where('service', '=='), orderBy('at', 'desc')],
    ['watchDashboard', collection('activity'), where('service', '=='), where('at', '>'), orderBy('at', 'desc')],
  ]),
  ...file('app/features/fleet/fleet-live.ts', [
    ['watchLocations', collection('locations'), orderBy('name')],
    ['watchAgents', collection('agents'), orderBy('name')],
  ]),
  ...file('app/features/notifications/notifications-live.ts', [
    ['watchNotifications', collection('notifications'), where('uid', '=='), orderBy('createdAt', 'desc')],
    ['watchNotifications', collection('notifications'), where('uid', '=='), where('read', '==')],
    ['markAllRead', collection('notifications'), where('uid', '=='), where('read', '==')],
  ]),
  ...file('app/features/reports/data/reports-live.ts', [
    ['watchPublishedScans', collection('scans'), where('service', '=='), where('state', '=='), orderBy('publishedAt', 'desc')],
    ['readComparedFindings', collection('findings'), where('service', '=='), where(byId, 'in')],
    ['watchCompanyActivity', collection('activity'), where('service', '=='), orderBy('at', 'desc')],
  ]),
  ...file('app/features/reports/exports/findings-pages.ts', [
    ['segmentQuery', collection('findings'), where('service', '=='), where('status', '=='), orderBy('lastSeenAt', 'desc')],
    ['segmentQuery', collection('findings'), where('service', '=='), where('status', 'in'), orderBy('lastSeenAt', 'desc')],
    [
      'segmentQuery',
      collection('findings'),
      where('service', '=='),
      where('status', '=='),
      where('severity', '=='),
      orderBy('lastSeenAt', 'desc'),
    ],
    [
      'segmentQuery',
      collection('findings'),
      where('service', '=='),
      where('status', 'in'),
      where('severity', '=='),
      orderBy('lastSeenAt', 'desc'),
    ],
  ]),
  ...file('app/features/reports/exports/findings-pages.ts', [
    // The pages of each segment over REST, newest seen first, the name breaking ties for the cursor.
    [
      'segmentPage',
      collection('findings'),
      where('service', '=='),
      where('status', 'in'),
      orderBy('lastSeenAt', 'desc'),
      orderBy(byId, 'desc'),
    ],
    [
      'segmentPage',
      collection('findings'),
      where('service', '=='),
      where('status', '=='),
      orderBy('lastSeenAt', 'desc'),
      orderBy(byId, 'desc'),
    ],
    [
      'segmentPage',
      collection('findings'),
      where('service', '=='),
      where('status', 'in'),
      where('severity', '=='),
      orderBy('lastSeenAt', 'desc'),
      orderBy(byId, 'desc'),
    ],
    [
      'segmentPage',
      collection('findings'),
      where('service', '=='),
      where('status', '=='),
      where('severity', '=='),
      orderBy('lastSeenAt', 'desc'),
      orderBy(byId, 'desc'),
    ],
  ]),
  ...file('app/features/reports/exports/history-reads.ts', [
    ['readHistories', group('history'), where('company', '=='), where('service', '=='), where('findingId', 'in')],
  ]),
  ...file('app/features/reports/findings/findings-live.ts', [
    ['watchFindingsByIds', collection('findings'), where('service', '=='), where(byId, 'in')],
    ['watchFindingHistory', collection('history'), orderBy('at', 'desc')],
    ['watchFindingComments', collection('comments'), where('visibility', '==')],
    ['watchFindingRetests', collection('retests'), where('service', '=='), where('findingIds', 'array-contains')],
  ]),
  ...file('app/features/templates/template-library-live.ts', [
    ['watchLatestTemplates', collection('finding_templates'), orderBy('updatedAt', 'desc')],
    ['readWholeLibrary', collection('finding_templates'), orderBy('title')],
  ]),
  ...file('app/features/vault/vault-links-live.ts', [
    ['watchVaultLinks', collection('vault_links'), where('createdBy', '=='), orderBy('createdAt', 'desc')],
  ]),
  ...file('app/features/vault/vault-requests-live.ts', [
    ['watchVaultRequests', collection('vault_requests'), where('createdBy', '=='), orderBy('createdAt', 'desc')],
    [
      'watchTeamVaultRequests',
      collection('vault_request_shares'),
      where('teamUids', 'array-contains'),
      where('company', '=='),
      orderBy('createdAt', 'desc'),
    ],
  ]),

  // The edge: structured queries over Firestore REST, with the reader's token.
  ...file('app/features/reports/data/reports-edge.server.ts', [
    ['publishedScans', collection('scans'), where('service', '=='), where('state', '=='), orderBy('publishedAt', 'desc')],
  ]),

  // The functions (firebase-admin).
  ...file('functions/src/admin/email-key-calls.ts', [['createEmailKey', collection('email_keys'), where('match', '==')]]),
  // Every users_access document, a page at a time in order of id, for the addresses they lack.
  ...file('functions/src/admin/fill-addresses.ts', [['fillPage', collection('users_access'), orderBy(byId)]]),
  // A page of people: any of company, type and level held fixed, from the start of an address or not,
  // in order of address; and the count of the same people unordered (those without an address too).
  // A service's managers: by address alone.
  ...file('functions/src/admin/list-users.ts', [
    ['peopleQueries', collection('users_access'), where('servicesManaged', 'array-contains')],
    ['peopleQueries', collection('users_access'), where('servicesManaged', 'array-contains'), orderBy('email'), orderBy(byId)],
    [
      'peopleQueries',
      collection('users_access'),
      where('servicesManaged', 'array-contains'),
      where('email', '>='),
      where('email', '<'),
      orderBy('email'),
      orderBy(byId),
    ],
  ]),
  ...file(
    'functions/src/admin/list-users.ts',
    // A company's members, or those removed from it.
    [[], [where('companies', 'array-contains')], [where('removedFrom', 'array-contains')]].flatMap((company) =>
      [[], [where('claims.userType', '==')]].flatMap((type) =>
        [[], [where('claims.accessLevel', '==')]].flatMap((level): [string, On, ...Clause[]][] => {
          const scope = [...company, ...type, ...level]
          const page = [orderBy('email'), orderBy(byId)]
          return [
            ['peopleQueries', collection('users_access'), ...scope],
            ['peopleQueries', collection('users_access'), ...scope, ...page],
            ['peopleQueries', collection('users_access'), ...scope, where('email', '>='), where('email', '<'), ...page],
          ]
        }),
      ),
    ),
  ),
  ...file('functions/src/admin/people.ts', [['assertAdminsKept', collection('users_access'), where('companies', 'array-contains')]]),
  // The client API: a page of the token's company's findings, of the services open to it, with
  // status and severity held fixed or not, last seen first; a finding's history; published scans.
  ...file('functions/src/api/client-api.ts', [
    ...[[], [where('status', '==')], [where('severity', '==')], [where('status', '=='), where('severity', '==')]].map(
      (held): [string, On, ...Clause[]] => [
        'listFindings',
        collection('findings'),
        where('service', 'in'),
        ...held,
        orderBy('lastSeenAt', 'desc'),
      ],
    ),
    ['readFinding', collection('history'), orderBy('at')],
    ['listScans', collection('scans'), where('service', 'in'), where('state', '=='), orderBy('publishedAt', 'desc')],
  ]),
  // Webhooks: a company's endpoints (to queue its events, to count them), an endpoint's deliveries
  // (removed with it), and the deliveries whose next attempt is due, soonest first.
  ...file('functions/src/webhooks/queue.ts', [['readWebhookTargets', collection('webhook_endpoints'), where('company', '==')]]),
  ...file('functions/src/webhooks/webhook-calls.ts', [
    ['createWebhookEndpoint', collection('webhook_endpoints'), where('company', '==')],
    ['deleteWebhookEndpoint', collection('webhook_deliveries'), where('endpointId', '==')],
  ]),
  ...file('functions/src/webhooks/deliver.ts', [
    [
      'sweepWebhookDeliveries',
      collection('webhook_deliveries'),
      where('state', '=='),
      where('nextAttemptAt', '<='),
      orderBy('nextAttemptAt'),
    ],
  ]),
  ...file('functions/src/agents/fleet-callables.ts', [
    ['deleteLocation', collection('agents'), where('locationId', '==')],
    ['deleteLocation', collection('scan_jobs'), where('locationId', '=='), where('state', 'in')],
    ['changeAgentAs', collection('agent_enrolments'), where('agentId', '=='), where('usedAt', '==')],
  ]),
  ...file('functions/src/agents/fleet-store.ts', [
    ['reclaimExpiredLeases', collection('scan_jobs'), where('state', 'in'), where('leaseExpiresAt', '<=')],
    ['reclaimExpiredLeases', collection('scan_jobs'), where('state', 'in'), where('locationId', '=='), where('leaseExpiresAt', '<=')],
    [
      'leaseNextJob',
      collection('scan_jobs'),
      where('locationId', '=='),
      where('state', '=='),
      where('scanner', 'in'),
      orderBy('createdAt'),
    ],
  ]),
  ...file('functions/src/delete-finding-template.ts', [['deleteFindingTemplate', group('findings'), where('templateSlug', '==')]]),
  ...file('functions/src/email-keys.ts', [['findEmailKey', collection('email_keys'), where('match', 'in')]]),
  // The people a comment may mention: a company's, in order of address, from the start typed or not.
  ...file('functions/src/intel/refresh-vuln-intel.ts', [['findingPages', group('findings'), where('hasCves', '=='), orderBy(byId)]]),
  ...file('functions/src/reports/mention-candidates.ts', [
    ['listMentionCandidates', collection('users_access'), where('companies', 'array-contains'), orderBy('email'), orderBy(byId)],
    [
      'listMentionCandidates',
      collection('users_access'),
      where('companies', 'array-contains'),
      where('email', '>='),
      where('email', '<'),
      orderBy('email'),
      orderBy(byId),
    ],
  ]),
  ...file('functions/src/reports/notify.ts', [['notifyCompany', collection('users_access'), where('companies', 'array-contains')]]),
  ...file('functions/src/reports/sweep.ts', [
    [
      'sweepFindings',
      group('findings'),
      where('status', '=='),
      where('riskAcceptance.expiresAt', '<='),
      orderBy('riskAcceptance.expiresAt'),
      orderBy(byId),
    ],
    ['sweepFindings', group('findings'), where('slaChangeAt', '<='), orderBy('slaChangeAt'), orderBy(byId)],
    ['sweepFindings', group('findings'), where('slaState', 'in'), orderBy('sla.dueAt'), orderBy(byId)],
  ]),
  ...file('functions/src/scans/preview-publication.ts', [
    ['previewDraftPublication', collection('findings'), where('lastSeenScanId', 'in'), where('status', '==')],
    ['previewDraftPublication', collection('draft_findings'), orderBy(byId)],
  ]),
  ...file('functions/src/scans/publish-scan.ts', [
    ['publishedScansOf', collection('scans'), where('service', '=='), where('state', '==')],
    ['draftMerges', collection('draft_findings'), where('mergedInto', '!=')],
    ['publishDraftScan', collection('draft_findings'), orderBy(byId)],
    ['publishDraftScan', collection('draft_assets'), orderBy(byId)],
    ['publishDraftScan', collection('findings'), where('service', '=='), orderBy(byId)],
    ['publishDraftScan', collection('assets'), where('service', '=='), orderBy(byId)],
  ]),
  ...file('functions/src/scans/review-draft-findings.ts', [
    ['reviewDraftFindings', collection('draft_findings'), where('mergedInto', 'in')],
  ]),
  ...file('functions/src/vault/vault-sweep.ts', [
    ['sweepVault', group('vault_sealed'), where('expiresAt', '<=')],
    ['sweepVault', collection('vault_links'), where('purgeAt', '<=')],
    ['sweepVault', collection('vault_requests'), where('purgeAt', '<=')],
  ]),
]
