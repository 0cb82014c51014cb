// A company's audit trail: who changed what, when, with the values before and after.
import type { ColumnDef } from '@tanstack/react-table'
import { auditActionLabels, type AuditEvent } from '#domain/audit-events.ts'
import { auditChanges as changes } from './audit-changes'
import { useLiveData } from '~/core/live-data'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { OrgSection, Muted } from './org-section'
import { DataTable } from '~/ui/data-table'
import { LocalTime } from '~/ui/local-time'

const columns: ColumnDef<AuditEvent, unknown>[] = [
  {
    id: 'at',
    header: 'When',
    accessorFn: (e) => e.at ?? 0,
    cell: ({ row }) => (row.original.at === null ? '—' : <LocalTime at={row.original.at} />),
  },
  { id: 'actor', header: 'Who', accessorFn: (e) => e.actorEmail ?? e.actorUid },
  { id: 'action', header: 'What', accessorFn: (e) => auditActionLabels[e.action] },
  { id: 'target', header: 'On', accessorFn: (e) => e.target.label },
  {
    id: 'change',
    header: 'Change',
    enableSorting: false,
    accessorFn: (e) => changes(e).join(' '),
    cell: ({ row }) => (
      <Muted>
        {changes(row.original).map((line) => (
          <span key={line}>
            {line}
            <br />
          </span>
        ))}
      </Muted>
    ),
  },
]

export function CompanyAuditTrail({ company }: { company: string }) {
  const events = useLiveData(() => import('./org-live').then((live) => live.watchCompanyAudit(company)), [company])
  return (
    <OrgSection aria-labelledby="audit-title">
      <h2 id="audit-title">Audit trail</h2>
      {events.status !== 'ready' ? (
        <LiveStatus live={events} what="the audit trail" />
      ) : (
        <>
          <DataTable
            label="Audit trail"
            data={events.data.items}
            columns={columns}
            rowId={(e) => e.id}
            filterLabel="Filter events"
            empty="No changes recorded yet."
          />
          <ListCap shown={events.data.items.length} what="changes" onMore={events.data.more} loading={events.data.loading}>
            The filter and sort apply to these.
          </ListCap>
        </>
      )}
    </OrgSection>
  )
}
