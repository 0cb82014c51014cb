// /analyst/locations: where scans come from (name, country, region, network, the egress addresses
// clients allow-list) and the agents at each, live; a location is renamed, or deleted once empty.
import { useState, type FormEvent } from 'react'
import { agentHealth, type Location } from '#domain/agents.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { ConfirmDialog } from '~/ui/confirm-dialog'
import { Dialog, DialogActions } from '~/ui/dialog'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage, TextField } from '~/ui/text-field'
import { callFleet, callFleetOrExplain, failureMessage } from './fleet-calls'
import { RecordTable } from '~/ui/data-table'
import { Muted, Row, Section } from './fleet-parts'
import { useTicking } from './ticking'

function LocationForm() {
  const [fields, setFields] = useState({ name: '', country: '', region: '', network: '', egress: '' })
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) => setFields({ ...fields, [key]: e.target.value })
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    try {
      await callFleet('saveLocation', {
        name: fields.name,
        country: fields.country.toUpperCase(),
        region: fields.region,
        network: fields.network,
        egressIps: fields.egress
          .split(/[\s,]+/)
          .map((s) => s.trim())
          .filter(Boolean),
      })
      setMessage({ tone: 'success', text: `${fields.name} added.` })
      setFields({ name: '', country: '', region: '', network: '', egress: '' })
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
      </form>
      {message && <FormMessage $tone={message.tone}>{message.text}</FormMessage>}
    </Section>
  )
}

function RenameLocation({ location }: { location: Location }) {
  const [open, setOpen] = useState(false)
  const [name, setName] = useState(location.name)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const { id, country, region, network, egressIps } = location
      await callFleet('saveLocation', { id, name, country, region, network, egressIps })
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
          setName(location.name)
          setError(null)
          setOpen(true)
        }}
      >
        Rename
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => !busy && setOpen(next)}
        title={`Rename ${location.name}`}
        description="Agents and scans keep the location."
      >
        <form onSubmit={(e) => void submit(e)}>
          <TextField label="New name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
          {error && <FormMessage $tone="error">{error}</FormMessage>}
          <DialogActions>
            <Button type="button" $variant="secondary" disabled={busy} onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              Rename
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

export function LocationsPanel() {
  const locations = useLiveData(async () => (await import('./fleet-live')).watchLocations(), [])
  const agents = useLiveData(async () => (await import('./fleet-live')).watchAgents(), [])
  const now = useTicking(5_000)
  return (
    <>
      <LocationForm />
      <Section aria-labelledby="locations-heading">
        <h2 id="locations-heading">Locations</h2>
        <LiveStatus live={locations} what="locations" />
        <RecordTable aria-label="Locations">
          <thead>
            <tr>
              <th>Name</th>
              <th>Country and region</th>
              <th>Network</th>
              <th>Egress IP addresses</th>
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
                  <td data-testid="location-agents">
                    {online.length} of {here.length} online
                    {here.length > 0 && <Muted> ({here.map((a) => a.name).join(', ')})</Muted>}
                  </td>
                  <td>
                    <Row>
                      <RenameLocation location={location} />
                      <DeleteLocation location={location} />
                    </Row>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </RecordTable>
      </Section>
    </>
  )
}
