// The platform's service catalogue: per service its name, description, whether new companies get
// it and its default remediation targets, each field autosaved through saveService; and the
// analysts who manage it, a page at a time (their access says so; it is changed on the person, under
// Platform users).
import { useMemo } from 'react'
import * as v from 'valibot'
import styled from 'styled-components'
import {
  ServiceDescriptionSchema,
  ServiceLabelSchema,
  SlaDaysSchema,
  type SaveServiceRequest,
  type ServiceCatalogueEntry,
} from '#domain/service-catalogue.ts'
import type { ServiceId } from '#domain/services.ts'
import { SEVERITIES, severityLabels } from '#domain/template-vocabulary.ts'
import { callLazily } from '~/core/call-lazily'
import { useLiveData } from '~/core/live-data'
import { AutosaveSelectField } from '~/ui/autosave/autosave-select-field'
import { AutosaveTextField } from '~/ui/autosave/autosave-text-field'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage } from '~/ui/text-field'
import { Muted, OrgSection } from '../org/org-section'
import { ShowMorePeople } from '../people/people-more'
import { showingLine } from '../people/people-view'
import { usePeople } from '../people/use-people'

const Targets = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(150px, 1fr));
  gap: 12px;
`

const problem = (schema: v.GenericSchema, value: unknown) => {
  const parsed = v.safeParse(schema, value)
  return parsed.success ? null : parsed.issues[0].message
}

/** Days as typed: empty is no target. */
const daysFrom = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()))

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'The change was not saved: try again.')

async function save(request: SaveServiceRequest) {
  await callLazily('saveService', request)
}

export function ServiceCataloguePage() {
  const catalogue = useLiveData(() => import('../org/org-live').then((live) => live.watchCatalogue), [])
  if (catalogue.status !== 'ready') return <LiveStatus live={catalogue} what="the service catalogue" />
  return (
    <>
      {catalogue.data.map((entry) => (
        <ServiceCard key={entry.id} entry={entry} />
      ))}
    </>
  )
}

function ServiceCard({ entry }: { entry: ServiceCatalogueEntry }) {
  const id = entry.id
  return (
    <OrgSection aria-labelledby={`service-${id}`}>
      <h2 id={`service-${id}`}>{entry.label}</h2>
      <AutosaveTextField
        label="Name"
        saved={entry.label}
        validate={(value) => problem(ServiceLabelSchema, value)}
        describeError={errorText}
        save={(label) => save({ service: id, label })}
      />
      <AutosaveTextField
        label="Description"
        multiline
        saved={entry.description}
        validate={(value) => problem(ServiceDescriptionSchema, value)}
        describeError={errorText}
        save={(description) => save({ service: id, description })}
      />
      <AutosaveSelectField<'yes' | 'no'>
        label="New companies get it"
        options={[
          { value: 'yes', label: 'Yes: its switches start on' },
          { value: 'no', label: 'No' },
        ]}
        saved={entry.defaultEnabled ? 'yes' : 'no'}
        describeError={errorText}
        save={(value) => save({ service: id, defaultEnabled: value === 'yes' })}
      />
      <div>
        <strong>Remediation targets (days)</strong>
        <Muted> — a finding's deadline from its publication; empty for none. New findings take them when a scan is published.</Muted>
      </div>
      <Targets>
        {SEVERITIES.map((severity) => (
          <AutosaveTextField
            key={severity}
            label={severityLabels[severity]}
            saved={entry.sla[severity] === null ? '' : String(entry.sla[severity])}
            inputProps={{ inputMode: 'numeric' }}
            validate={(text) => problem(SlaDaysSchema, daysFrom(text))}
            describeError={errorText}
            save={(text) => save({ service: id, sla: { [severity]: daysFrom(text) } })}
          />
        ))}
      </Targets>
      <Managers service={id} />
    </OrgSection>
  )
}

/** Who manages the service, a page at a time in order of address (listUsers, as the people lists). */
function Managers({ service }: { service: ServiceId }) {
  const managers = usePeople(useMemo(() => ({ company: null, manages: service }), [service]))
  return (
    <div aria-busy={managers.status === 'loading' || managers.busy}>
      <strong>Managed by</strong>{' '}
      {managers.status !== 'ready' ? (
        <LiveStatus live={{ status: managers.status, retry: managers.retry }} what="who manages it" />
      ) : managers.rows.length === 0 && !managers.next ? (
        <Muted>no analyst yet (give one the service to manage under Platform users).</Muted>
      ) : (
        <>
          <span>{managers.rows.map((m) => m.email ?? m.uid).join(', ')}</span>{' '}
          <Muted>({showingLine(managers.rows.length, managers.total)})</Muted>
          {managers.error && <FormMessage $tone="error">{managers.error}</FormMessage>}
          <ShowMorePeople people={managers} />
        </>
      )}
    </div>
  )
}
