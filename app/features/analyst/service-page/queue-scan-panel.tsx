// Queue a scan on an agent: targets from the company's scan scope, a profile of this service, a
// location that scans for the company (decision 0034); the jobs follow live (waiting, taken,
// running, done with their draft scan, failed).
import { useState, type FormEvent } from 'react'
import { locationServes } from '#domain/agents.ts'
import { JOB_STATE_LABELS, SCAN_PROFILE_IDS, SCAN_PROFILES, type ScanProfile } from '#domain/scan-jobs.ts'
import type { ServiceId } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import { LocalTime } from '~/ui/local-time'
import { Button } from '~/ui/button'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { Field, FormMessage, Label, Select } from '~/ui/text-field'
import { callAnalyst, failureMessage } from './analyst-calls'
import { JobOutcome, Muted, Panel, Table, Toolbar } from './parts'

export const profilesForService = (service: ServiceId) =>
  SCAN_PROFILE_IDS.filter((id) => SCAN_PROFILES[id].service === service && id !== 'password-audit')

export function QueueScanPanel({ company, service, onScan }: { company: string; service: ServiceId; onScan(id: string): void }) {
  const profiles = profilesForService(service)
  const scope = useLiveData(async () => (await import('./analyst-live')).watchScanScope(company), [company])
  const allLocations = useLiveData(async () => (await import('./analyst-live')).watchLocations(), [])
  const serving = (allLocations.data ?? []).filter((location) => locationServes(location, company))
  const jobs = useLiveData(async () => (await import('./analyst-live')).watchScanJobs(company, service), [company, service])
  const [profile, setProfile] = useState<ScanProfile | ''>('')
  const [locationId, setLocationId] = useState('')
  const [targets, setTargets] = useState('')
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  if (profiles.length === 0) return null
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setMessage(null)
    try {
      await callAnalyst('queueScanJob', {
        company,
        profile: profile || profiles[0]!,
        locationId: locationId || serving[0]?.id || '',
        targets: targets
          .split(/\s+/)
          .map((t) => t.trim())
          .filter(Boolean),
      })
      setMessage({ tone: 'success', text: 'Queued: an agent at the location takes it within seconds when one is online.' })
    } catch (e) {
      setMessage({ tone: 'error', text: await failureMessage(e) })
    }
  }
  const targetsField = `queue-targets-${service}`
  return (
    <Panel aria-label="Scan with an agent">
      <h2>Scan with an agent</h2>
      {scope.data === undefined ? (
        // Until the server answers, the scope is unknown, not empty.
        <LiveStatus live={scope} what="the company’s scan scope" />
      ) : (
        <Muted>
          Targets must lie in the company’s scan scope:{' '}
          {scope.data.map((e) => e.value).join(', ') || 'none yet (set it on the company page)'}.
        </Muted>
      )}
      <form onSubmit={(e) => void submit(e)}>
        <Toolbar>
          <Field>
            <Label htmlFor={`${targetsField}-profile`}>Profile</Label>
            <Select id={`${targetsField}-profile`} value={profile} onChange={(e) => setProfile(e.target.value as ScanProfile)}>
              {profiles.map((id) => (
                <option key={id} value={id}>
                  {SCAN_PROFILES[id].label}
                </option>
              ))}
            </Select>
          </Field>
          <Field>
            <Label htmlFor={`${targetsField}-location`}>Location</Label>
            <Select id={`${targetsField}-location`} value={locationId} onChange={(e) => setLocationId(e.target.value)}>
              {serving.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field>
            <Label htmlFor={targetsField}>Targets (URLs or hosts, one per line)</Label>
            <textarea id={targetsField} rows={2} cols={40} value={targets} onChange={(e) => setTargets(e.target.value)} required />
          </Field>
          <Button type="submit">Queue scan</Button>
        </Toolbar>
      </form>
      {allLocations.data && serving.length === 0 && (
        <Muted>
          No location scans for this company yet: a senior analyst chooses the companies of each location on the Locations page.
        </Muted>
      )}
      {message && <FormMessage $tone={message.tone}>{message.text}</FormMessage>}
      <LiveStatus live={jobs} what="the scan jobs" />
      {(jobs.data?.items ?? []).length > 0 && (
        <>
          <Table aria-label="Scan jobs">
            <thead>
              <tr>
                <th>Queued</th>
                <th>Profile and targets</th>
                <th>State</th>
                <th>Progress</th>
              </tr>
            </thead>
            <tbody>
              {(jobs.data?.items ?? []).map((job) => (
                <tr key={job.id} data-job={job.id}>
                  <td>
                    <LocalTime at={job.createdAt} />
                  </td>
                  <td>
                    {SCAN_PROFILES[job.profile].label}: {job.targets.join(', ')}
                  </td>
                  <td data-testid="job-state">
                    {JOB_STATE_LABELS[job.state]}
                    {job.attempts > 1 && ` (attempt ${job.attempts} of ${job.maxAttempts})`}
                  </td>
                  <td>
                    <JobOutcome job={job} onScan={onScan} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <ListCap shown={jobs.data?.items.length ?? 0} what="scan jobs" more={jobs.data?.more ?? false}>
            Each job&rsquo;s scan stays in the list of scans.
          </ListCap>
        </>
      )}
    </Panel>
  )
}
