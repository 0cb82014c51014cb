// The agent program as the e2e tests run it: a location with a one-time enrolment token made
// behind the page's back (as a senior analyst would on the agents page), and the agent started as a
// real process with its own state file.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { expect } from '@playwright/test'
import { newEnrolmentToken, sha256Hex } from '#domain/agent-auth.ts'
import { agentEnrolmentPath, agentFromDocument, agentHealth, agentPath, ENROLMENT_TTL_MS, locationPath } from '#domain/agents.ts'
import { sharedAdmin } from '../../../emulators/firebase/admin.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')

/** Creates the location and returns a fresh enrolment token for an agent named `agentName` there. */
export async function enrolmentToken(
  location: { id: string; name: string; companies?: string[] },
  agentName: string,
  createdBy: string,
): Promise<string> {
  const { db } = sharedAdmin()
  await db.doc(locationPath(location.id)).set({
    name: location.name,
    country: 'GB',
    region: '',
    network: 'loopback',
    egressIps: [],
    companies: location.companies ?? ['acme'],
  })
  const token = newEnrolmentToken()
  const now = Date.now()
  await db.doc(agentEnrolmentPath(await sha256Hex(token))).set({
    locationId: location.id,
    agentId: null,
    name: agentName,
    createdBy,
    createdAt: new Date(now),
    expiresAt: new Date(now + ENROLMENT_TTL_MS),
    usedAt: null,
    usedByAgentId: null,
  })
  return token
}

/** Starts the agent program with `args`, keeping its state in `stateDir`. */
export function runAgent(stateDir: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--experimental-strip-types', 'agent/src/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, BULWARK_AGENT_STATE: path.join(stateDir, 'state.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** The process's exit code, once it has exited (at once if it already has). */
export const exited = (child: ChildProcess) =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise<number | null>((resolve) => child.once('exit', resolve))

/**
 * Enrols an agent at a location of its own (made with enrolmentToken), starts it with `runArgs` and
 * waits until it beats (online, or degraded by a scanner missing here) with `scanner` found on this host
 * (and, for john, its sealing key sent).
 */
export async function onlineAgent(options: {
  stateDir: string
  location: { id: string; name: string; companies?: string[] }
  agentName: string
  createdBy: string
  baseURL: string
  scanner: 'wapiti' | 'john'
  runArgs?: string[]
}): Promise<{ agent: ChildProcess; agentId: string }> {
  const token = await enrolmentToken(options.location, options.agentName, options.createdBy)
  const enrol = runAgent(options.stateDir, ['enrol', token, '--server', `${options.baseURL}/api/agents`])
  expect(await exited(enrol)).toBe(0)
  const agent = runAgent(options.stateDir, ['run', ...(options.runArgs ?? [])])
  const { agentId } = JSON.parse(await readFile(path.join(options.stateDir, 'state.json'), 'utf8')) as { agentId: string }
  await expect
    .poll(
      async () => {
        const found = agentFromDocument(agentId, (await sharedAdmin().db.doc(agentPath(agentId)).get()).data())
        const ready = found?.scanners.some((s) => s.name === options.scanner) && (options.scanner !== 'john' || found.sealingKey)
        return found && ready ? agentHealth(found, Date.now()) : null
      },
      { timeout: 60_000 },
    )
    .toMatch(/^(online|degraded)$/)
  return { agent, agentId }
}

/** Stops an agent started by onlineAgent (or runAgent), if any, and waits for it to exit. */
export async function stopAgent(agent: ChildProcess | null): Promise<void> {
  if (!agent) return
  agent.kill('SIGTERM')
  await exited(agent)
}
