// The scanning agent's command line:
//   enrol <token> --server <url>   make a key pair, exchange the one-time token for this agent's identity
//   run                            beat, take scan jobs for this agent's location and run them, until stopped
// Options: --state <file> (default ~/.bulwark-agent/state.json, or BULWARK_AGENT_STATE), and for
// `run`, --scan-beyond-loopback to scan addresses other than this host's loopback, and
// --dns-server <host[:port]> (repeatable) for the servers the agent resolves targets with (the
// system's by default).
// The server URL is the agent API's root: the app's /api/agents, or the agentApi function, over https
// (plain http only on this host's loopback).
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { homedir, hostname } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as v from 'valibot'
import { generateAgentKeyPair, importAgentPrivateKey } from '#domain/agent-auth.ts'
import { generateSealingKeyPair, SealingKeySchema } from '#domain/agent-sealing.ts'
import { runPasswordAuditJob } from './password-audit.ts'
import { AgentClient, enrol, serverBase } from './api-client.ts'
import { AGENT_VERSION, AgentRunner } from './runner.ts'
import { detectScanners, runJob } from './scanners.ts'
import { dnsResolver, TargetGuard } from './scope.ts'

const StateSchema = v.object({
  server: v.pipe(v.string(), v.url()),
  agentId: v.string(),
  name: v.string(),
  privateKey: v.string(),
  /** The X25519 pair password audits are sealed to; absent in a state file written before them. */
  sealing: v.optional(v.object({ publicKey: SealingKeySchema, privateKey: v.string() })),
})

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: 'string' },
    state: { type: 'string', default: process.env.BULWARK_AGENT_STATE ?? path.join(homedir(), '.bulwark-agent', 'state.json') },
    'scan-beyond-loopback': { type: 'boolean', default: false },
    'dns-server': { type: 'string', multiple: true, default: [] },
  },
})
const [command, token] = positionals
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`)

async function enrolCommand(): Promise<void> {
  if (!token || !values.server) throw new Error('usage: enrol <token> --server <url>')
  const server = serverBase(values.server)
  const { scanners, missing } = detectScanners()
  const { pair, privateKeyText } = await generateAgentKeyPair()
  const sealing = await generateSealingKeyPair()
  const identity = await enrol(server, {
    token,
    publicKey: pair.publicKey,
    sealingKey: sealing.publicKey,
    hostname: hostname().slice(0, 200),
    version: AGENT_VERSION,
    scanners,
  })
  await mkdir(path.dirname(values.state), { recursive: true, mode: 0o700 })
  // The private keys never leave this file; the server holds the public keys only.
  const state = {
    server,
    agentId: identity.agentId,
    name: identity.name,
    privateKey: privateKeyText,
    sealing: { publicKey: sealing.publicKey, privateKey: sealing.privateKeyText },
  }
  await writeFile(values.state, JSON.stringify(state), { mode: 0o600 })
  log(`enrolled as ${identity.name} (${identity.agentId}); scanners: ${scanners.map((s) => `${s.name} ${s.version}`).join(', ') || 'none'}`)
  if (missing.length) log(`not found on this host: ${missing.join(', ')}`)
}

async function runCommand(): Promise<void> {
  const state = v.parse(StateSchema, JSON.parse(await readFile(values.state, 'utf8')))
  const { scanners, missing } = detectScanners()
  const client = new AgentClient(values.server ?? state.server, state.agentId, await importAgentPrivateKey(state.privateKey))
  const beyond = values['scan-beyond-loopback']
  const resolve = dnsResolver(values['dns-server'])
  const runner = new AgentRunner({
    client,
    scanners,
    problems: missing.map((name) => `${name} is not installed`),
    guardFor: (job) => new TargetGuard(job.scope, { loopbackOnly: !beyond, resolve }),
    runJob: (job, guard, signal, onRun) =>
      job.profile === 'password-audit'
        ? runPasswordAuditJob(
            job,
            state.sealing ? { agentId: state.agentId, publicKey: state.sealing.publicKey, privateKeyText: state.sealing.privateKey } : null,
            signal,
          )
        : runJob(job, guard, signal, onRun, log),
    log,
  })
  log(`${state.name} running (${scanners.map((s) => s.name).join(', ')}); ${beyond ? 'any address in scope' : 'loopback only'}`)
  runner.start()
  const stop = () => {
    log('stopping')
    runner.stop()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

try {
  if (command === 'enrol') await enrolCommand()
  else if (command === 'run') await runCommand()
  else
    throw new Error(
      'usage: main.ts enrol <token> --server <url> | main.ts run [--state <file>] [--scan-beyond-loopback] [--dns-server <host[:port]>]',
    )
} catch (error) {
  console.error((error as Error).message)
  process.exit(1)
}
