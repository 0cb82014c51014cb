// The agent's check of every target before a scanner starts: inside the job's scope (the one
// matcher the server also applies), and, unless the operator allowed more, an address on this
// host's loopback. A host name counts only if every address it resolves to passes.
import { lookup } from 'node:dns/promises'
import { isLoopbackTarget, jobTargetAllowed, targetHost, type JobScopeEntry } from '../../app/domain/agent-scope.ts'

export interface TargetCheck {
  target: string
  allowed: boolean
  reason?: string
}

/** The one switch between the agent and the scope matcher. */
export const scopeAllows = (target: string, scope: readonly JobScopeEntry[]) => jobTargetAllowed(target, scope)

export async function checkTarget(target: string, scope: readonly JobScopeEntry[], beyondLoopback: boolean): Promise<TargetCheck> {
  if (!scopeAllows(target, scope)) return { target, allowed: false, reason: `${target} is outside the job's scope` }
  if (beyondLoopback) return { target, allowed: true }
  const host = targetHost(target)
  if (!host) return { target, allowed: false, reason: `${target} names no host` }
  const addresses =
    isLoopbackTarget(host) && host !== 'localhost' ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address)
  if (addresses.length === 0) return { target, allowed: false, reason: `${host} does not resolve` }
  const outside = addresses.find((address) => !isLoopbackTarget(address))
  if (outside) return { target, allowed: false, reason: `${target} is not a loopback address (${outside}); this agent scans loopback only` }
  return { target, allowed: true }
}
