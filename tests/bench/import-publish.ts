// `npm run bench:import`: importing and publishing 10,000 findings through the callables, as the
// analyst's browser sends them (batches of 200), on the Firebase emulators: a first scan (all new),
// then a second one of the same scope (80 % persisting, 20 % new, the rest not detected). One run,
// figures only: the time of each step, findings per second and the publish calls it took. Then the
// steps a person waits on, each a few times (median and slowest): publishing a scan of 8 findings,
// creating a company, creating an email key, the sign-in callable.
import { createHash, randomUUID } from 'node:crypto'
import { allCompanyFlags, LEVEL } from '#domain/access.ts'
import type { CallableName, CallableRequest, CallableResponse } from '#domain/callables.ts'
import { companyPath } from '#domain/companies.ts'
import { IMPORT_BATCH_FINDINGS } from '#domain/scan-import-calls.ts'
import type { ParsedFinding } from '#domain/scan-import/parsed-scan.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { connectToEmulators, disconnect } from '../../emulators/firebase/admin.ts'
import { companyDocument, tokenClaims } from '../builders.ts'
import { callByName, connectCallableClient, signInWithClaims } from '../emulators/callable-client.ts'

const FINDINGS = Number(process.env.BENCH_IMPORT_FINDINGS ?? 10_000)
const STEP_ROUNDS = 5
const SLUG = `bench-import-${randomUUID().slice(0, 6)}`

const admin = connectToEmulators()
const client = connectCallableClient('bench-import')
const claims = tokenClaims(LEVEL.seniorAnalyst)
const { uid } = await signInWithClaims(client, admin.auth, { ...claims })
await admin.db.doc(userAccessPath(uid)).set({ claims, companies: [], servicesEnabled: [], servicesManaged: [] })
await admin.db.doc(companyPath(SLUG)).set(companyDocument(SLUG, { enableViewResultsNetwork: true }))

const platform = connectCallableClient('bench-import-platform')
const platformClaims = tokenClaims(LEVEL.platformAdmin)
const { uid: platformUid } = await signInWithClaims(platform, admin.auth, { ...platformClaims })
await admin.db.doc(userAccessPath(platformUid)).set({ claims: platformClaims, companies: [], servicesEnabled: [], servicesManaged: [] })

const call = async <N extends CallableName>(name: N, data: CallableRequest<N>) =>
  (await callByName(client, name, data)) as CallableResponse<N>

const finding = (n: number): ParsedFinding => ({
  ruleId: `CVE-2026-${String(n % 500).padStart(4, '0')}`,
  title: `Vulnerable service ${n % 500}`,
  severity: (['critical', 'high', 'medium', 'low', 'info'] as const)[n % 5]!,
  target: { kind: 'host', host: `10.1.${(n >> 8) & 255}.${n & 255}`, ip: `10.1.${(n >> 8) & 255}.${n & 255}`, port: 443, protocol: 'tcp' },
  evidence: `banner ${n}`,
  raw: { script: 'vulners' },
})

/** Imports and publishes `findings` as one scan; the seconds each half took, and the publish calls. */
async function importAndPublish(label: string, findings: ParsedFinding[], scopeKey = 'network:bench') {
  const sha256 = createHash('sha256').update(`${label}${SLUG}`).digest('hex')
  const started = performance.now()
  const { scanId } = await call('createDraftScan', {
    company: SLUG,
    service: 'network',
    title: label,
    scopeKey,
    files: [{ name: `${label}.xml`, sha256, size: findings.length * 500, format: 'nmap_xml', tool: 'nmap', toolVersion: '7.95' }],
    startedAt: Date.now(),
    finishedAt: Date.now(),
    targets: ['10.1.0.0/16'],
    report: { findings: findings.length, assets: 0, skipped: 0, warnings: 0, notes: [] },
  })
  for (let start = 0; start < findings.length; start += IMPORT_BATCH_FINDINGS)
    await call('addDraftFindings', {
      company: SLUG,
      scanId,
      sourceFile: sha256,
      findings: findings.slice(start, start + IMPORT_BATCH_FINDINGS),
      assets: [],
    })
  await call('finishDraftImport', { company: SLUG, scanId })
  const imported = performance.now()
  // A large scan is published over several calls, each answering with its progress.
  let calls = 0
  let answer: CallableResponse<'publishScan'>
  do {
    answer = await call('publishScan', { company: SLUG, scanId })
    calls++
  } while (answer.progress)
  const { counts } = answer
  const published = performance.now()
  const importS = (imported - started) / 1000
  const publishS = (published - imported) / 1000
  return { importS, publishS, calls, counts }
}

async function bulk(label: string, findings: ParsedFinding[]) {
  const { importS, publishS, calls, counts } = await importAndPublish(label, findings)
  console.log(
    `${label.padEnd(34)} import ${importS.toFixed(1).padStart(6)} s (${(findings.length / importS).toFixed(0)} findings/s)   publish ${publishS.toFixed(1).padStart(6)} s (${(findings.length / publishS).toFixed(0)} findings/s, ${calls} calls)   ${JSON.stringify(counts)}`,
  )
}

try {
  const all = Array.from({ length: FINDINGS + FINDINGS / 5 }, (_, n) => finding(n))
  console.log(`\n${FINDINGS} findings, batches of ${IMPORT_BATCH_FINDINGS}, Functions and Firestore emulators`)
  await bulk('first scan (all new)', all.slice(0, FINDINGS))
  await bulk('second scan (80 % persisting)', [...all.slice(0, (FINDINGS * 4) / 5), ...all.slice(FINDINGS)])

  console.log(`\nSteps a person waits on, ${STEP_ROUNDS} rounds each: median / slowest`)
  const step = async (label: string, once: (round: number) => Promise<number>) => {
    const seconds: number[] = []
    for (let round = 0; round < STEP_ROUNDS; round++) seconds.push(await once(round))
    seconds.sort((a, b) => a - b)
    console.log(`${label.padEnd(34)} ${seconds[Math.floor(STEP_ROUNDS / 2)]!.toFixed(2).padStart(6)} s / ${seconds.at(-1)!.toFixed(2)} s`)
  }
  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now()
    await work()
    return (performance.now() - started) / 1000
  }
  // One scope: after the first, each has 8 new findings and the 8 before are not detected.
  await step('publish a scan of 8 findings', async (round) => {
    const { publishS } = await importAndPublish(`small scan ${round}`, all.slice(round * 8, round * 8 + 8), 'network:small')
    return publishS
  })
  await step('create a company', (round) =>
    timed(() =>
      callByName(platform, 'createCompany', { companyName: `Bench ${SLUG} ${round}`, flags: allCompanyFlags(false), scanScope: [] }),
    ),
  )
  await step('create an email key', (round) =>
    timed(() =>
      callByName(platform, 'createEmailKey', {
        match: `@${SLUG}-${round}.example`,
        company: SLUG,
        userType: 'client',
        accessLevel: 1,
        expiresAt: Date.now() + 86_400_000,
      }),
    ),
  )
  // What sign-in waits on once the link is opened: handleSignIn's access check, claim sync and record
  // (last: it syncs the analyst's claims). sendSignInLink answers in the same time whoever asks, by
  // design (decision 0020), so it is not timed here.
  await step('handle a sign-in', () => timed(() => call('handleSignIn', null)))
} finally {
  await client.close()
  await platform.close()
  await disconnect(admin)
}
