// A password audit run by an agent (decision 0021): the hash file (secretsdump NTDS) and a word list
// are sealed here, in the browser, to the chosen agent's X25519 key; the server stores and passes on
// ciphertext only. The agent runs john, derives the audit itself and sends back what the browser's
// import would: no hash, no password. The jobs follow live until their draft is ready.
import { useId, useState, type FormEvent } from 'react'
import { agentHealth, AGENT_HEALTH_LABELS, locationServes, type Agent } from '#domain/agents.ts'
import { sealPasswordAudit } from '#domain/agent-sealing.ts'
import { MAX_SEALED_AUDIT_CHARS } from '#domain/agents-calls.ts'
import { JOB_STATE_LABELS } from '#domain/scan-jobs.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { LocalTime } from '~/ui/local-time'
import { Field, FormMessage, Label, Select } from '~/ui/text-field'
import { splitAccountNames } from '../password-audit/audit-files'
import { callAnalyst, failureMessage } from './analyst-calls'
import { JobOutcome, Muted, Panel, Table, Toolbar } from './parts'

/** Why an agent cannot take a password audit now, or null when it can. */
export function auditRefusal(agent: Agent, now: number, servingLocations: ReadonlySet<string>): string | null {
  if (!servingLocations.has(agent.locationId)) return 'its location does not scan for this company'
  if (!agent.scanners.some((s) => s.name === 'john')) return 'john not found on its host'
  if (!agent.sealingKey) return 'enrolled before password audits: rotate its credentials'
  const health = agentHealth(agent, now)
  return health === 'online' || health === 'degraded' ? null : AGENT_HEALTH_LABELS[health].toLowerCase()
}

/** Base64url grows the ciphertext by a third: the plaintext that fits in one job. */
const MAX_INPUT_BYTES = Math.floor((MAX_SEALED_AUDIT_CHARS * 3) / 4) - 64 * 1024

export function AgentAuditPanel({ company, companyName, onScan }: { company: string; companyName: string; onScan(id: string): void }) {
  const ids = useId()
  const agents = useLiveData(async () => (await import('./analyst-live')).watchAgents(), [])
  const locations = useLiveData(async () => (await import('./analyst-live')).watchLocations(), [])
  const serving = new Set((locations.data ?? []).filter((l) => locationServes(l, company)).map((l) => l.id))
  const jobs = useLiveData(async () => (await import('./analyst-live')).watchScanJobs(company, 'password_cracking'), [company])
  const [agentId, setAgentId] = useState('')
  const [ntds, setNtds] = useState<File | null>(null)
  const [wordlist, setWordlist] = useState<File | null>(null)
  const [policy, setPolicy] = useState(12)
  const [privileged, setPrivileged] = useState('')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const now = Date.now()
  const usable = (agents.data ?? []).filter((a) => auditRefusal(a, now, serving) === null)
  const chosen = usable.find((a) => a.id === agentId) ?? usable[0]

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setMessage(null)
    if (!chosen?.sealingKey || !ntds || !wordlist) return
    if (ntds.size + wordlist.size > MAX_INPUT_BYTES) {
      setMessage({
        tone: 'error',
        text: `The hash file and word list together must be under ${Math.floor(MAX_INPUT_BYTES / 1_048_576)} MB.`,
      })
      return
    }
    setBusy(true)
    try {
      const sealed = await sealPasswordAudit(
        chosen.sealingKey,
        {
          ntds: await ntds.text(),
          wordlist: await wordlist.text(),
          companyNames: [companyName, company],
          policyMinLength: policy,
          privilegedAccounts: splitAccountNames(privileged),
        },
        { company, agentId: chosen.id },
      )
      await callAnalyst('queuePasswordAudit', { company, agentId: chosen.id, sealed })
      setMessage({ tone: 'success', text: `Queued for ${chosen.name}: sealed to its key, so only it can read the files.` })
    } catch (e) {
      setMessage({ tone: 'error', text: await failureMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Panel aria-label="Password audit on an agent">
      <h2>Password audit on an agent</h2>
      <Muted>
        The hash file and the word list are encrypted in this browser to the agent’s own key. The agent runs john, derives the audit as an
        import would and sends back no hash and no password.
      </Muted>
      <form onSubmit={(e) => void submit(e)}>
        <Toolbar>
          <Field>
            <Label htmlFor={`${ids}-agent`}>Agent</Label>
            <Select id={`${ids}-agent`} value={chosen?.id ?? ''} onChange={(e) => setAgentId(e.target.value)}>
              {(agents.data ?? []).map((a) => {
                const refusal = auditRefusal(a, now, serving)
                return (
                  <option key={a.id} value={a.id} disabled={refusal !== null}>
                    {a.name}
                    {refusal ? ` (${refusal})` : ''}
                  </option>
                )
              })}
            </Select>
          </Field>
          <Field>
            <Label htmlFor={`${ids}-ntds`}>Hash file (secretsdump NTDS)</Label>
            <input id={`${ids}-ntds`} type="file" required onChange={(e) => setNtds(e.target.files?.[0] ?? null)} />
          </Field>
          <Field>
            <Label htmlFor={`${ids}-words`}>Word list</Label>
            <input id={`${ids}-words`} type="file" required onChange={(e) => setWordlist(e.target.files?.[0] ?? null)} />
          </Field>
          <Field>
            <Label htmlFor={`${ids}-policy`}>Minimum length (policy)</Label>
            <input
              id={`${ids}-policy`}
              type="number"
              min={0}
              max={256}
              value={policy}
              onChange={(e) => setPolicy(Math.max(0, Math.min(256, Number(e.target.value) || 0)))}
            />
          </Field>
          <Field>
            <Label htmlFor={`${ids}-privileged`}>Privileged accounts (one a line)</Label>
            <textarea id={`${ids}-privileged`} rows={2} cols={30} value={privileged} onChange={(e) => setPrivileged(e.target.value)} />
          </Field>
          <Button type="submit" disabled={busy || !chosen}>
            {busy ? 'Sealing…' : 'Run on the agent'}
          </Button>
        </Toolbar>
      </form>
      {agents.status === 'ready' && usable.length === 0 && (
        <Muted>No agent can take a password audit now: it must be online, have john and a key for password audits.</Muted>
      )}
      {message && <FormMessage $tone={message.tone}>{message.text}</FormMessage>}
      <LiveStatus live={jobs} what="the password audit jobs" />
      {(jobs.data?.items ?? []).length > 0 && (
        <>
          <Table aria-label="Password audit jobs">
            <thead>
              <tr>
                <th>Queued</th>
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
                  <td data-testid="job-state">{JOB_STATE_LABELS[job.state]}</td>
                  <td>
                    <JobOutcome job={job} onScan={onScan} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <ListCap shown={jobs.data?.items.length ?? 0} what="password audit jobs" more={jobs.data?.more ?? false}>
            Each job&rsquo;s scan stays in the list of scans.
          </ListCap>
        </>
      )}
    </Panel>
  )
}
