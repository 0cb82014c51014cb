// The agent program as the e2e tests run it: a location with a one-time enrolment token made
// behind the page's back (as a senior analyst would on the agents page), and the agent started as a
// real process with its own state file.
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { newEnrolmentToken, sha256Hex } from '#domain/agent-auth.ts'
import { agentEnrolmentPath, ENROLMENT_TTL_MS, locationPath } from '#domain/agents.ts'
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
