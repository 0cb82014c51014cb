// /analyst/locations: where scans come from (name, country, region, network, the egress addresses
// clients allow-list, the companies it scans for) and the agents at each, live; a location is
// renamed, given other companies, or deleted once empty. Only the companies a location serves can
// have scans run from it, DAST keys' included (decision 0034).
import { useState, type FormEvent, type ReactNode } from 'react'
import styled from 'styled-components'
import { agentHealth, type Location, type LocationFields } from '#domain/agents.ts'
import type { Company } from '#domain/companies.ts'
import { callLazily } from '~/core/call-lazily'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { CheckboxGroup } from '~/ui/checkbox-grid'
import { ConfirmDialog } from '~/ui/confirm-dialog'
import { Dialog, DialogActions } from '~/ui/dialog'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage, TextField } from '~/ui/text-field'
import { callFleetOrExplain, failureMessage } from './fleet-calls'
import { RecordTable, TableScroll } from '~/ui/data-table'
import { Muted, Row, Section } from './fleet-parts'
import { useTicking } from './ticking'

const Scope = styled(CheckboxGroup)`
  margin-top: 12px;
`

/** The companies a location scans for, as checkboxes. */
function CompaniesField({
  companies,
  chosen,
  onChange,
}: {
  companies: readonly Company[]
  chosen: readonly string[]
  onChange(next: string[]): void
}) {
  return (
    <Scope>
      <legend>Scans for</legend>
      {companies.map((company) => (
        <label key={company.slug}>
          <input
            type="checkbox"
            checked={chosen.includes(company.slug)}
            onChange={(event) =>
              onChange(event.target.checked ? [...chosen, company.slug] : chosen.filter((slug) => slug !== company.slug))
            }
          />
          {company.companyName}
        </label>
      ))}
    </Scope>
  )
}

const EMPTY_FIELDS = { name: '', country: '', region: '', network: '', egress: '', companies: [] as string[] }

function LocationForm({ companies }: { companies: readonly Company[] }) {
  const [fields, setFields] = useState(EMPTY_FIELDS)
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const set = (key: Exclude<keyof typeof fields, 'companies'>) => (e: { target: { value: string } }) =>
    setFields({ ...fields, [key]: e.target.value })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    try {
      await callLazily('saveLocation', {
        name: fields.name,
        country: fields.country.toUpperCase(),
        region: fields.region,
        network: fields.network,
        egressIps: fields.egress
          .split(/[\s,]+/)
          .map((s) => s.trim())
          .filter(Boolean),
        companies: fields.companies,
      })
      setMessage({ tone: 'success', text: `${fields.name} added.` })
      setFields(EMPTY_FIELDS)
    } catch (e) {
      setMessage({ tone: 'error', text: await failureMessage(e) })
    }
  }
  return (
    <Section aria-labelledby="location-heading">
      <h2 id="location-heading">Add a location</h2>
      <form onSubmit={(e) => void submit(e)}>
        <Row>
          <TextField label="Name" value={fields.name} onChange={set('name')} required maxLength={100} />
          <TextField label="Country (two letters)" value={fields.country} onChange={set('country')} required maxLength={2} />
          <TextField label="Region" value={fields.region} onChange={set('region')} maxLength={100} />
          <TextField label="Network" value={fields.network} onChange={set('network')} maxLength={500} />
          <TextField label="Egress IP addresses" value={fields.egress} onChange={set('egress')} placeholder="203.0.113.7/32" />
          <Button type="submit">Add location</Button>
        </Row>
        <CompaniesField companies={companies} chosen={fields.companies} onChange={(next) => setFields({ ...fields, companies: next })} />
      </form>
      {message && <FormMessage $tone={message.tone}>{message.text}</FormMessage>}
    </Section>
  )
}

/** The companies a location serves, by name (a slug no longer listed stays as it is). */
const servedNames = (location: Location, companies: readonly Company[]) =>
  location.companies.map((slug) => companies.find((c) => c.slug === slug)?.companyName ?? slug)

/**
 * A button opening a dialog that changes one thing about a location (its name, its companies) and
 * saves the location whole with it.
 */
function EditLocation<T>({
  location,
  label,
  title,
  description,
  submitLabel,
  initial,
  change,
  children,
}: {
  location: Location
  label: string
  title: string
  description: string
  submitLabel: string
  initial(location: Location): T
  change(value: T): Partial<LocationFields>
  children(value: T, set: (value: T) => void): ReactNode
}) {
  const [open, setOpen] = useState(false)
  const [value, setValue] = useState(() => initial(location))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const { id, name, country, region, network, egressIps, companies } = location
      await callLazily('saveLocation', { id, name, country, region, network, egressIps, companies, ...change(value) })
      setOpen(false)
    } catch (e) {
      setError(await failureMessage(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <Button
        type="button"
        $variant="secondary"
        onClick={() => {
          setValue(initial(location))
          setError(null)
          setOpen(true)
        }}
      >
        {label}
      </Button>
      <Dialog open={open} onOpenChange={(next) => !busy && setOpen(next)} title={title} description={description}>
        <form onSubmit={(e) => void submit(e)}>
          {children(value, setValue)}
          {error && <FormMessage $tone="error">{error}</FormMessage>}
          <DialogActions>
            <Button type="button" $variant="secondary" disabled={busy} onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {submitLabel}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  )
}

function DeleteLocation({ location }: { location: Location }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button type="button" $variant="secondary" onClick={() => setOpen(true)}>
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${location.name}?`}
        description="Only a location without agents and without waiting or running scans can go."
        confirmLabel="Delete location"
        onConfirm={() => callFleetOrExplain('deleteLocation', { id: location.id })}
      />
    </>
  )
}

export function LocationsPanel({ companies }: { companies: readonly Company[] }) {
  const locations = useLiveData(async () => (await import('./fleet-live')).watchLocations(), [])
  const agents = useLiveData(async () => (await import('./fleet-live')).watchAgents(), [])
  const now = useTicking(5_000)
  return (
    <>
      <LocationForm companies={companies} />
      <Section aria-labelledby="locations-heading">
        <h2 id="locations-heading">Locations</h2>
        <LiveStatus live={locations} what="locations" />
        <TableScroll>
          <RecordTable aria-label="Locations">
            <thead>
              <tr>
                <th>Name</th>
                <th>Country and region</th>
                <th>Network</th>
                <th>Egress IP addresses</th>
                <th>Scans for</th>
                <th>Agents</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {(locations.data ?? []).map((location) => {
                const here = (agents.data ?? []).filter((a) => a.locationId === location.id)
                const online = here.filter((a) => agentHealth(a, now) === 'online')
                return (
                  <tr key={location.id}>
                    <td>{location.name}</td>
                    <td>
                      {location.country}
                      {location.region && <Muted> · {location.region}</Muted>}
                    </td>
                    <td>{location.network || '—'}</td>
                    <td>{location.egressIps.join(', ') || '—'}</td>
                    <td data-testid="location-companies">
                      {servedNames(location, companies).join(', ') || <Muted>No company: no scan runs here</Muted>}
                    </td>
                    <td data-testid="location-agents">
                      {online.length} of {here.length} online
                      {here.length > 0 && <Muted> ({here.map((a) => a.name).join(', ')})</Muted>}
                    </td>
                    <td>
                      <Row>
                        <EditLocation
                          location={location}
                          label="Rename"
                          title={`Rename ${location.name}`}
                          description="Agents and scans keep the location."
                          submitLabel="Rename"
                          initial={(l) => l.name}
                          change={(name) => ({ name })}
                        >
                          {(name, setName) => (
                            <TextField label="New name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
                          )}
                        </EditLocation>
                        <EditLocation
                          location={location}
                          label="Companies"
                          title={`Companies ${location.name} scans for`}
                          description="Scans of other companies, and their DAST keys’ scans, never run from this location."
                          submitLabel="Save"
                          initial={(l) => l.companies}
                          change={(chosen) => ({ companies: chosen })}
                        >
                          {(chosen, setChosen) => <CompaniesField companies={companies} chosen={chosen} onChange={setChosen} />}
                        </EditLocation>
                        <DeleteLocation location={location} />
                      </Row>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </RecordTable>
        </TableScroll>
      </Section>
    </>
  )
}
