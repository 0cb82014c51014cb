// The platform's service catalogue: per service its name, description, whether new companies get
// it and its default remediation targets, each field autosaved through saveService; and the
// analysts who manage it (their access says so; it is changed on the person, under Platform users).
import { useEffect, useState } from 'react'
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
import { useLiveData } from '~/core/live-data'
import { AutosaveSelectField } from '~/ui/autosave/autosave-select-field'
import { AutosaveTextField } from '~/ui/autosave/autosave-text-field'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage } from '~/ui/text-field'
import { Muted, OrgSection } from '../org/org-section'

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
  const { call } = await import('~/core/call')
  await call('saveService', request)
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

type ManagersState =
  { status: 'loading' } | { status: 'ready'; managers: { uid: string; email: string | null }[] } | { status: 'failed'; message: string }

function Managers({ service }: { service: ServiceId }) {
  const [state, setState] = useState<ManagersState>({ status: 'loading' })
  useEffect(() => {
    let current = true
    void import('~/core/call')
      .then(({ call }) => call('listServiceManagers', { service }))
      .then(
        ({ managers }) => current && setState({ status: 'ready', managers }),
        (error: unknown) => current && setState({ status: 'failed', message: errorText(error) }),
      )
    return () => {
      current = false
    }
  }, [service])
  return (
    <div aria-busy={state.status === 'loading'}>
      <strong>Managed by</strong> {state.status === 'loading' && <Muted role="status">Loading…</Muted>}
      {state.status === 'failed' && <FormMessage $tone="error">{state.message}</FormMessage>}
      {state.status === 'ready' &&
        (state.managers.length === 0 ? (
          <Muted>no analyst yet (give one the service to manage under Platform users).</Muted>
        ) : (
          <span>{state.managers.map((m) => m.email ?? m.uid).join(', ')}</span>
        ))}
    </div>
  )
}
