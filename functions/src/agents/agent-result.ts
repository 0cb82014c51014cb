// An agent's result: the scanner's raw output goes through the same parsers and the same draft
// writers as an analyst's import (decision 0017), so the draft scan it makes reviews and publishes
// like any other. The server checks the scope again: findings on targets outside the job's scope
// are dropped and noted, whatever the agent did.
import * as v from 'valibot'
import { ResultRequestSchema } from '#domain/agent-api.ts'
import { jobTargetAllowed } from '#domain/agent-scope.ts'
import type { Agent } from '#domain/agents.ts'
import { sha256Hex } from '#domain/agent-auth.ts'
import {
  AddDraftFindingsRequestSchema,
  CreateDraftScanRequestSchema,
  IMPORT_BATCH_ASSETS,
  IMPORT_BATCH_FINDINGS,
} from '#domain/scan-import-calls.ts'
import { nmapXmlParser } from '#domain/scan-import/nmap-xml.ts'
import { testsslJsonParser } from '#domain/scan-import/testssl-json.ts'
import { wapitiJsonParser } from '#domain/scan-import/wapiti-json.ts'
import { ScanParseError, type FindingTarget, type ParsedScan, type ScanParser, SNIFF_CHARS } from '#domain/scan-import/parsed-scan.ts'
import { textChunks } from '#domain/scan-import/text-source.ts'
import { releaseAfterFailure, SCAN_PROFILES, type ScanJob, type ScanProfile } from '#domain/scan-jobs.ts'
import { targetsScopeKey } from '#domain/publication-scope.ts'
import { formatIp, parseIp } from '#domain/scan-scope.ts'
import { scanFromDocument, scanPath } from '#domain/scans.ts'
import { addressRefusal } from '#domain/special-addresses.ts'
import type { Firestore } from 'firebase-admin/firestore'
import * as logger from 'firebase-functions/logger'
import { writeDraftFindings } from '../scans/add-draft-findings.ts'
import { writeDraftScan } from '../scans/create-draft-scan.ts'
import { finishImport } from '../scans/finish-draft-import.ts'
import { publishDraftScan } from '../scans/publish-scan.ts'
import { dropSealedInput, FleetError, finishJob, heldJob, parseBody } from './fleet-store.ts'

/** How long a CI scan's publication may take within the agent API's 300 s. */
const CI_PUBLISH_BUDGET_MS = 200_000

const targetText = (target: FindingTarget): string | null =>
  target.kind === 'url' ? target.url : target.kind === 'host' ? (target.ip ?? target.host) : null

/** The importer of each profile's output: the agent's scanner writes that format and no other. */
const PROFILE_PARSERS: Record<ScanProfile, ScanParser | null> = {
  'web-dast': wapitiJsonParser,
  'network-ports': nmapXmlParser,
  'tls-config': testsslJsonParser,
  // Password audits are derived on the agent (decision 0021), never parsed here: no hash reaches the server.
  'password-audit': null,
}

/** Parses an output with the profile's importer; refuses anything else. */
async function parseOutput(profile: ScanProfile, output: string): Promise<{ scan: ParsedScan; label: string }> {
  const parser = PROFILE_PARSERS[profile]
  if (!parser) throw new FleetError(422, 'The server does not import this profile’s output.')
  if (!parser.sniff(output.slice(0, SNIFF_CHARS))) throw new FleetError(422, `The output is not ${parser.label}.`)
  try {
    return { scan: await parser.parse(textChunks(output, 64 * 1024)), label: parser.label }
  } catch (error) {
    if (error instanceof ScanParseError) throw new FleetError(422, error.message)
    throw error
  }
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

/** The import's contracts applied to what an agent sent: a refusal names the first problem. */
function strictParse<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value)
  if (!parsed.success) throw new FleetError(422, `The result does not fit the import: ${parsed.issues[0].message}`)
  return parsed.output
}

interface ParsedOutput {
  sha256: string
  size: number
  scan: ParsedScan
  /** The findings whose targets lie in the job's scope. */
  inScope: ParsedScan['findings']
}

/**
 * The addresses the agent pinned names of the job's scope to (nmap is handed addresses, decision
 * 0034): a finding on one of them is on that name. A pin of a name outside the scope, or to an
 * address the scope does not allow, counts for nothing.
 */
function pinnedAddresses(job: ScanJob, resolved: readonly { host: string; addresses: string[] }[]): Set<string> {
  const allowed = new Set<string>()
  for (const { host, addresses } of resolved) {
    if (!jobTargetAllowed(host, job.scope)) continue
    for (const text of addresses) {
      const address = parseIp(text)
      if (address && addressRefusal(address, text, job.scope, false) === null) allowed.add(formatIp(address))
    }
  }
  return allowed
}

/** The draft scan made from a job's outputs (one file each); returns its id. */
export async function importJobOutput(
  db: Firestore,
  agent: Agent,
  job: ScanJob,
  outputs: string[],
  startedAt: number,
  finishedAt: number,
  resolved: readonly { host: string; addresses: string[] }[] = [],
): Promise<string> {
  const pinned = pinnedAddresses(job, resolved)
  const onPinnedAddress = (target: string) => {
    const address = parseIp(target)
    return address !== null && pinned.has(formatIp(address))
  }
  const parsed: ParsedOutput[] = []
  for (const output of outputs) {
    const { scan } = await parseOutput(job.profile, output)
    const inScope = scan.findings.filter((f) => {
      const target = targetText(f.target)
      return target === null || jobTargetAllowed(target, job.scope) || onPinnedAddress(target)
    })
    parsed.push({ sha256: await sha256Hex(output), size: new TextEncoder().encode(output).length, scan, inScope })
  }
  return writeJobDraft(db, agent, job, parsed, startedAt, finishedAt)
}

/** The envelope of an audit derived on the agent; its findings and assets are checked by the import's own strict contracts. */
const DerivedAuditSchema = v.object({
  format: v.literal('ntds_potfile'),
  tool: v.object({ name: v.pipe(v.string(), v.maxLength(100)), version: v.pipe(v.string(), v.maxLength(100)) }),
  startedAt: v.nullable(v.number()),
  finishedAt: v.nullable(v.number()),
  findings: v.array(v.unknown()),
  assets: v.array(v.unknown()),
  statistics: v.record(v.string(), v.number()),
  notes: v.array(v.object({ level: v.picklist(['skipped', 'warning', 'info']), where: v.string(), message: v.string() })),
  serviceStats: v.optional(v.looseObject({ service: v.literal('password_cracking') })),
})

/** A password audit derived on the agent (no hash, no password), written as an analyst's audit import is. */
export async function importDerivedAudit(
  db: Firestore,
  agent: Agent,
  job: ScanJob,
  audit: unknown,
  startedAt: number,
  finishedAt: number,
): Promise<string> {
  const envelope = v.safeParse(DerivedAuditSchema, audit)
  if (!envelope.success) throw new FleetError(422, `The password audit is malformed: ${envelope.issues[0].message}`)
  const scan = audit as ParsedScan
  // Its identity is the derived result, as in the browser: the same dump and word list give the same draft.
  const text = JSON.stringify(scan)
  return writeJobDraft(db, agent, job, [{ sha256: await sha256Hex(text), size: 0, scan, inScope: scan.findings }], startedAt, finishedAt, {
    title: `Password audit by ${agent.name}`,
    fileName: `Password audit (derived by ${agent.name})`,
  })
}

async function writeJobDraft(
  db: Firestore,
  agent: Agent,
  job: ScanJob,
  parsed: ParsedOutput[],
  startedAt: number,
  finishedAt: number,
  naming?: { title: string; fileName: string },
): Promise<string> {
  const profile = SCAN_PROFILES[job.profile]
  const dropped = parsed.reduce((n, p) => n + p.scan.findings.length - p.inScope.length, 0)
  const notes = [
    ...parsed.flatMap((p) => p.scan.notes),
    ...(dropped
      ? [{ level: 'skipped' as const, where: 'scope', message: `${dropped} findings on targets outside the job's scope were dropped` }]
      : []),
  ].map((n) => ({ ...n, where: n.where.slice(0, 2_048), message: n.message.slice(0, 2_048) }))
  const statistics: Record<string, number> = {}
  for (const p of parsed) for (const [key, value] of Object.entries(p.scan.statistics)) statistics[key] = (statistics[key] ?? 0) + value
  const starts = parsed.flatMap((p) => (p.scan.startedAt === null ? [] : [p.scan.startedAt]))
  const ends = parsed.flatMap((p) => (p.scan.finishedAt === null ? [] : [p.scan.finishedAt]))
  const serviceStats = parsed.find((p) => p.scan.serviceStats?.service === profile.service)?.scan.serviceStats
  const by = `agent:${agent.name}`
  const draft = strictParse(CreateDraftScanRequestSchema, {
    company: job.company,
    service: profile.service,
    title: (naming?.title ?? `${profile.label} by ${agent.name}`).slice(0, 200),
    scopeKey: targetsScopeKey(profile.service, job.targets),
    files: parsed.map((p, n) => ({
      name: naming?.fileName.slice(0, 255) ?? `${job.profile}-${job.id}-${n + 1}.${p.scan.format.endsWith('xml') ? 'xml' : 'json'}`,
      sha256: p.sha256,
      size: p.size,
      format: p.scan.format,
      tool: p.scan.tool.name.slice(0, 100),
      toolVersion: p.scan.tool.version.slice(0, 100),
    })),
    startedAt: Math.round(starts.length ? Math.min(...starts) : startedAt),
    finishedAt: Math.round(ends.length ? Math.max(...ends) : finishedAt),
    targets: job.targets,
    report: {
      findings: parsed.reduce((n, p) => n + p.inScope.length, 0),
      assets: parsed.reduce((n, p) => n + p.scan.assets.length, 0),
      skipped: notes.filter((n) => n.level === 'skipped').length,
      warnings: notes.filter((n) => n.level === 'warning').length,
      notes: notes.slice(0, 500),
      statistics,
    },
    ...(serviceStats ? { serviceStats: plain(serviceStats) } : {}),
  })
  const made = await writeDraftScan(db, draft, by)
  // Whole already; one still importing (a result that failed half-way) is sent again, then finished.
  if (made.state !== 'importing') return made.scanId
  const stored = scanFromDocument(made.scanId, (await db.doc(scanPath(job.company, made.scanId)).get()).data())
  if (!stored) throw new Error(`Draft ${made.scanId} cannot be read back`)
  for (const { sha256, scan, inScope } of parsed) {
    const batches = Math.max(Math.ceil(inScope.length / IMPORT_BATCH_FINDINGS), Math.ceil(scan.assets.length / IMPORT_BATCH_ASSETS), 1)
    for (let n = 0; n < batches; n++) {
      const batch = strictParse(AddDraftFindingsRequestSchema, {
        company: job.company,
        scanId: made.scanId,
        sourceFile: sha256,
        findings: plain(inScope.slice(n * IMPORT_BATCH_FINDINGS, (n + 1) * IMPORT_BATCH_FINDINGS)),
        assets: plain(scan.assets.slice(n * IMPORT_BATCH_ASSETS, (n + 1) * IMPORT_BATCH_ASSETS)),
      })
      await writeDraftFindings(db, stored, batch, by)
    }
  }
  await finishImport(db, job.company, made.scanId, by)
  return made.scanId
}

/**
 * A CI scan whose key publishes at once: the draft goes to the client's reports before the job says
 * it succeeded, so a pipeline that sees `succeeded` finds the findings published. A result sent
 * again publishes nothing twice (publishing a published scan changes nothing).
 */
async function publishAtOnce(db: Firestore, job: ScanJob, scanId: string): Promise<void> {
  const scan = scanFromDocument(scanId, (await db.doc(scanPath(job.company, scanId)).get()).data())
  if (!scan) throw new Error(`Draft ${scanId} cannot be read back`)
  // Within the agent API's own time; a scan too large for it is left half-written, for an analyst to finish publishing.
  const outcome = await publishDraftScan(
    db,
    job.company,
    scan,
    { by: job.createdBy, name: 'CI pipeline (DAST key)' },
    { budgetMs: CI_PUBLISH_BUDGET_MS },
  )
  if (outcome.progress) logger.warn('agent result: the scan is not yet fully published', { scanId, ...outcome.progress })
}

/** The agent's last word on a job: its output imported as a draft scan, or its failure (retried while attempts remain). */
export async function recordResult(
  db: Firestore,
  agent: Agent,
  jobId: string,
  body: unknown,
  now: number,
): Promise<{ state: string; scanId: string | null }> {
  const result = parseBody(ResultRequestSchema, body)
  // Held by this agent now, in a transaction that renews its lease for the import: a result that comes
  // after the lease ran out or the job was cancelled writes nothing.
  const job = await heldJob(db, agent, jobId, now)
  if (job.state === 'succeeded' || job.state === 'failed' || job.state === 'cancelled') return { state: job.state, scanId: job.scanId }
  if (result.outcome === 'failed') {
    const change = result.refused
      ? ({ state: 'failed', leasedBy: null, leaseExpiresAt: null, error: result.error, finishedAt: now } as const)
      : releaseAfterFailure(job, now, result.error)
    const done = await finishJob(db, agent, jobId, change, {
      progress: { phase: 'failed', message: result.error.slice(0, 500), at: now },
    })
    if (done.state === 'failed') await dropSealedInput(db, jobId)
    return { state: done.state, scanId: null }
  }
  const audit = job.profile === 'password-audit'
  if (audit !== (result.outcome === 'audited')) throw new FleetError(422, 'This result does not fit the job’s profile.')
  let scanId: string
  try {
    scanId =
      result.outcome === 'audited'
        ? await importDerivedAudit(db, agent, job, result.audit, result.startedAt, result.finishedAt)
        : await importJobOutput(db, agent, job, result.outputs, result.startedAt, result.finishedAt, result.resolved)
  } catch (error) {
    if (!(error instanceof FleetError)) throw error
    const reason = `The output could not be imported: ${error.message}`
    await finishJob(db, agent, jobId, { state: 'failed', leasedBy: null, leaseExpiresAt: null, error: reason, finishedAt: now }, {})
    if (audit) await dropSealedInput(db, jobId)
    throw error
  }
  if (audit) await dropSealedInput(db, jobId)
  if (job.publishAtOnce) {
    // Still held once the draft is written (not cancelled or taken back meanwhile), or it stays a draft.
    await heldJob(db, agent, jobId, now)
    await publishAtOnce(db, job, scanId)
  }
  const done = await finishJob(
    db,
    agent,
    jobId,
    { state: 'succeeded', leasedBy: null, leaseExpiresAt: null, error: null, finishedAt: now },
    {
      scanId,
      progress: { phase: 'done', message: job.publishAtOnce ? 'Published to the reports' : 'Draft scan ready for review', at: now },
    },
  )
  return { state: done.state, scanId }
}
