// /analyst/agents: enrol an agent (a one-time token shown once, with the command to run), and the
// fleet live: health from heartbeat ages (thresholds in #domain/agents.ts), version, scanners,
// location, current job, last error; disable, rotate credentials, remove.
import { useState, type FormEvent } from 'react'
import {
  AGENT_HEALTH_LABELS,
  agentHealth,
  ENROLMENT_TTL_MS,
  HEARTBEAT_INTERVAL_MS,
  OFFLINE_AFTER_MS,
  ONLINE_WITHIN_MS,
  type Agent,
  type Location,
} from '#domain/agents.ts'
import { callLazily } from '~/core/call-lazily'
import { useLiveData } from '~/core/live-data'
import { LocalTime } from '~/ui/local-time'
import { Button } from '~/ui/button'
import { CopyButton } from '~/ui/copy-button'
import { ConfirmDialog } from '~/ui/confirm-dialog'
import { LiveStatus } from '~/ui/live-status'
import { Field, FormMessage, Label, Select, TextField } from '~/ui/text-field'
import { callFleetOrExplain, failureMessage } from './fleet-calls'
import { RecordTable, TableScroll } from '~/ui/data-table'
import { Muted, Row, Secret, Section } from './fleet-parts'
import { useTicking } from './ticking'

function enrolCommand(token: string): string {
  const server = typeof window === 'undefined' ? '' : `${window.location.origin}/api/agents`
  return `npm run agent -- enrol ${token} --server ${server}\nnpm run agent -- run`
}

export function TokenShown({ token, expiresAt }: { token: string; expiresAt: number }) {
  return (
    <div role="status" aria-label="Enrolment token">
      <p>
        Copy this now: it is shown once and works once, until <LocalTime at={expiresAt} />. On the agent’s host run:
      </p>
      <Secret data-testid="enrol-command">{enrolCommand(token)}</Secret>
      <Row>
        <CopyButton text={token} label="Copy token" />
        <CopyButton text={enrolCommand(token)} label="Copy the commands" />
      </Row>
    </div>
  )
}

function EnrolForm({ locations }: { locations: Location[] }) {
  const [name, setName] = useState('')
  const [locationId, setLocationId] = useState('')
  const [issued, setIssued] = useState<{ token: string; expiresAt: number } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      setIssued(await callLazily('createAgentEnrolment', { name, locationId: locationId || locations[0]?.id || '' }))
      setName('')
    } catch (e) {
      setError(await failureMessage(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Section aria-labelledby="enrol-heading">
      <h2 id="enrol-heading">Enrol an agent</h2>
      <form onSubmit={(e) => void submit(e)}>
        <Row>
          <TextField label="Agent name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
          <Field>
            <Label htmlFor="enrol-location">Location</Label>
            <Select id="enrol-location" value={locationId} onChange={(e) => setLocationId(e.target.value)}>
              {locations.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </Select>
          </Field>
          <Button type="submit" disabled={busy || locations.length === 0}>
            Create enrolment token
          </Button>
        </Row>
      </form>
      <Muted>Tokens are valid for {ENROLMENT_TTL_MS / 3_600_000} hours and once; only their hash is stored.</Muted>
      {issued && <TokenShown {...issued} />}
      {error && <FormMessage $tone="error">{error}</FormMessage>}
    </Section>
  )
}

function AgentActions({ agent }: { agent: Agent }) {
  const [issued, setIssued] = useState<{ token: string; expiresAt: number } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [removing, setRemoving] = useState(false)
  const act = async (action: 'disable' | 'enable' | 'rotate') => {
    setError(null)
    try {
      const answer = await callLazily('changeAgent', { agentId: agent.id, action })
      if (answer.token && answer.expiresAt) setIssued({ token: answer.token, expiresAt: answer.expiresAt })
    } catch (e) {
      setError(await failureMessage(e))
    }
  }
  return (
    <>
      <Row>
        {agent.state === 'active' ? (
          <Button type="button" $variant="secondary" onClick={() => void act('disable')}>
            Disable
          </Button>
        ) : (
          <Button type="button" $variant="secondary" onClick={() => void act('enable')}>
            Enable
          </Button>
        )}
        <Button type="button" $variant="secondary" onClick={() => void act('rotate')}>
          Rotate credentials
        </Button>
        <Button type="button" $variant="secondary" onClick={() => setRemoving(true)}>
          Remove
        </Button>
      </Row>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={`Remove ${agent.name}?`}
        description="Its key stops working at once; it will have to be enrolled again."
        confirmLabel="Remove agent"
        onConfirm={() => callFleetOrExplain('changeAgent', { agentId: agent.id, action: 'remove' })}
      />
      {issued && <TokenShown {...issued} />}
      {error && <FormMessage $tone="error">{error}</FormMessage>}
    </>
  )
}

const ago = (now: number, at: number | null) => (at === null ? 'never' : `${Math.max(0, Math.round((now - at) / 1000))} s ago`)

export function AgentsPanel() {
  const agents = useLiveData(async () => (await import('./fleet-live')).watchAgents(), [])
  const locations = useLiveData(async () => (await import('./fleet-live')).watchLocations(), [])
  const now = useTicking(5_000)
  const locationName = new Map((locations.data ?? []).map((l) => [l.id, l.name]))
  return (
    <>
      <EnrolForm locations={locations.data ?? []} />
      <Section aria-labelledby="fleet-heading">
        <h2 id="fleet-heading">Fleet</h2>
        <Muted>
          Agents beat every {HEARTBEAT_INTERVAL_MS / 1000} s: online when the last beat is at most {ONLINE_WITHIN_MS / 1000} s old, degraded
          up to {OFFLINE_AFTER_MS / 1000} s or when the agent reports a problem, offline after.
        </Muted>
        <LiveStatus live={agents} what="agents" />
        <TableScroll>
          <RecordTable aria-label="Agents">
            <thead>
              <tr>
                <th>Agent</th>
                <th>Status</th>
                <th>Location</th>
                <th>Version and scanners</th>
                <th>Last heartbeat</th>
                <th>Current job</th>
                <th>Last error</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {(agents.data ?? []).map((agent) => {
                const health = agentHealth(agent, now)
                return (
                  <tr key={agent.id} data-agent={agent.name}>
                    <td>
                      {agent.name}
                      <br />
                      <Muted>{agent.hostname}</Muted>
                    </td>
                    <td data-testid="agent-health">
                      {AGENT_HEALTH_LABELS[health]}
                      {agent.problems.length > 0 && <Muted> ({agent.problems.join('; ')})</Muted>}
                    </td>
                    <td>{locationName.get(agent.locationId) ?? agent.locationId}</td>
                    <td>
                      {agent.version || '—'}
                      <br />
                      <Muted>{agent.scanners.map((s) => `${s.name} ${s.version}`).join(', ') || 'no scanners'}</Muted>
                    </td>
                    <td>{ago(now, agent.lastHeartbeatAt)}</td>
                    <td>{agent.currentJobId ?? '—'}</td>
                    <td>{agent.lastError ?? '—'}</td>
                    <td>
                      <AgentActions agent={agent} />
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
