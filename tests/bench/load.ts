// `npm run bench:load`: 200 signed-in clients on server-rendered pages for 60 seconds, against the
// production build in workerd with the stack the e2e suite uses (emulators, a tenth of the demo
// year). Each connection is one of the demo people, cycling through pages they may open; a page
// counts as an error unless it answers 200 rendered for that person. Prints errors, requests/s,
// median and p99 latency, and the Worker's memory twice over: what its isolate holds alive after a
// full collection (JavaScript objects, workerd's objects behind them, ArrayBuffer contents; read
// through workerd's inspector) before the load and after each run, and workerd's resident set. The
// load runs twice. Steadiness is judged on the heap after collection: it counts only what is still
// alive, so a leak shows as growth in the second run. The resident set also counts what V8 and
// workerd's allocator keep after a collection for later allocations, and workerd's own native
// memory: it may keep rising while nothing alive grows (what V8 keeps for its heap is printed too).
// BENCH_HEAP_SNAPSHOTS=<folder> also writes a heap snapshot at each of those three points
// (before.heapsnapshot, run1…, run2…), to open in a browser's developer tools and compare.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import autocannon from 'autocannon'
import { demoAccount } from '../../emulators/seed/demo-accounts.ts'
import { idTokenFor } from './page-load.ts'
import { withStack } from './preview-server.ts'
import { workerInspector } from './worker-inspector.ts'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 200)
const DURATION_S = Number(process.env.BENCH_DURATION ?? 60)
const SAMPLE_EVERY_MS = 5_000
const TIMEOUT_S = 10
process.env.SEED_REPORTS_SCALE ??= '0.1'

/** Who signs in, and the server-rendered pages each opens in turn. */
const PEOPLE: { email: string; pages: string[] }[] = [
  { email: 'viewer@acme.example', pages: ['/', '/reports', '/reports/dast', '/profile'] },
  { email: 'manager@acme.example', pages: ['/', '/reports', '/profile'] },
  { email: 'admin@acme.example', pages: ['/', '/reports', '/admin', '/profile'] },
  { email: 'analyst@sectest.example', pages: ['/', '/reports', '/analyst', '/profile'] },
  { email: 'senior@sectest.example', pages: ['/', '/reports', '/templates/finding', '/analyst'] },
  { email: 'platform@sectest.example', pages: ['/', '/reports', '/admin', '/profile'] },
]

/** A page rendered for the person: their address in the header, no refusal in its place. */
const renderedFor = (body: string, email: string) =>
  body.includes(email) && !body.includes('You must be signed in') && !body.includes('You don&#x27;t have access')

/** Resident memory (MiB) of the workerd processes started below this one. */
function workerMemoryMiB(): number {
  const parents = new Map<number, number>()
  const names = new Map<number, string>()
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid)) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const close = stat.lastIndexOf(')')
      names.set(pid, stat.slice(stat.indexOf('(') + 1, close))
      parents.set(pid, Number(stat.slice(close + 2).split(' ')[1]))
    } catch {
      // The process ended while we looked.
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true
    return false
  }
  let kib = 0
  for (const [pid, name] of names) {
    if (!name.startsWith('workerd') || !mine(pid)) continue
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    kib += Number(rss?.[1] ?? 0)
  }
  if (kib === 0) throw new Error('No workerd process found under this benchmark')
  return kib / 1024
}

await withStack(async (baseUrl) => {
  const people = await Promise.all(
    PEOPLE.map(async ({ email, pages }) => ({ email, pages, cookie: `__Host-session=${await idTokenFor(demoAccount(email).uid)}` })),
  )
  // Each page once, and checked, before the load: the figures are of the pages meant.
  for (const person of people)
    for (const page of person.pages) {
      const response = await fetch(`${baseUrl}${page}`, { headers: { cookie: person.cookie } })
      const body = await response.text()
      if (response.status !== 200 || !renderedFor(body, person.email)) throw new Error(`${page} is not rendered for ${person.email}`)
    }

  const warmUp = await autocannon({ url: baseUrl, connections: 8, amount: 200, headers: { cookie: people[0]!.cookie } })
  if (warmUp.errors + warmUp.non2xx > 0) throw new Error('The warm-up failed')

  interface Client {
    person?: (typeof people)[number]
    turn?: number
  }
  const runLoad = async () => {
    const memory = [workerMemoryMiB()]
    const sampler = setInterval(() => memory.push(workerMemoryMiB()), SAMPLE_EVERY_MS)
    let next = 0
    const wrong: Record<string, number> = {}
    const result = await autocannon({
      url: baseUrl,
      connections: CLIENTS,
      duration: DURATION_S,
      timeout: TIMEOUT_S,
      requests: [
        {
          method: 'GET',
          // Connection n is person n mod 6, and walks through that person's pages.
          setupRequest: (request, context: Client) => {
            context.person ??= people[next++ % people.length]!
            context.turn = ((context.turn ?? -1) + 1) % context.person.pages.length
            return { ...request, path: context.person.pages[context.turn]!, headers: { cookie: context.person.cookie } }
          },
          onResponse: (status, body, context: Client) => {
            const person = context.person!
            if (status === 200 && renderedFor(body, person.email)) return
            const key = `${status} ${person.pages[context.turn!]} as ${person.email}`
            wrong[key] = (wrong[key] ?? 0) + 1
          },
        },
      ],
    })
    clearInterval(sampler)
    memory.push(workerMemoryMiB())
    return { result, wrong, memory }
  }

  const inspector = await workerInspector(baseUrl)
  const snapshots = process.env.BENCH_HEAP_SNAPSHOTS
  const heapAfterGc = async (label: string) => {
    const usage = await inspector.heapAfterGc()
    if (snapshots) await inspector.writeSnapshot(path.join(snapshots, `${label}.heapsnapshot`))
    return usage
  }
  const heap = [await heapAfterGc('before')]
  const runs = []
  for (const label of ['run1', 'run2']) {
    runs.push(await runLoad())
    // The pages of the connections cut when a run ends are still being rendered for a while (at
    // most the clients' timeout): measured at once, they would count as alive.
    await sleep(TIMEOUT_S * 1000)
    heap.push(await heapAfterGc(label))
  }
  inspector.close()

  console.log(`\n${CLIENTS} signed-in clients (${people.length} people), ${DURATION_S}s twice, production build in workerd`)
  for (const [i, { result, wrong, memory }] of runs.entries()) {
    const notRendered = Object.values(wrong).reduce((sum, n) => sum + n, 0)
    const errors = result.errors + result.timeouts + notRendered
    console.log(`run ${i + 1}`)
    console.log(`  requests       ${result.requests.total} (${(result.requests.total / DURATION_S).toFixed(0)} req/s)`)
    console.log(`  errors         ${errors} (connection errors ${result.errors}, timeouts ${result.timeouts}, not rendered ${notRendered})`)
    for (const [what, n] of Object.entries(wrong)) console.log(`    ${n} × ${what}`)
    console.log(`  latency        median ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`)
    const [start, end] = [heap[i]!, heap[i + 1]!]
    console.log(
      `  worker heap    after GC: start ${start.liveMiB.toFixed(1)} MiB, end ${end.liveMiB.toFixed(1)} MiB ` +
        `(JS ${end.jsMiB.toFixed(1)}, workerd objects ${end.workerdMiB.toFixed(1)}, buffers ${end.buffersMiB.toFixed(1)}; ` +
        `V8 keeps ${end.heapMiB.toFixed(0)} MiB for its heap)`,
    )
    console.log(
      `  worker RSS     start ${memory[0]!.toFixed(0)} MiB, end ${memory.at(-1)!.toFixed(0)} MiB, peak ${Math.max(...memory).toFixed(0)} MiB`,
    )
    console.log(`    samples every ${SAMPLE_EVERY_MS / 1000}s: ${memory.map((m) => m.toFixed(0)).join(' ')}`)
    if (errors > 0) process.exitCode = 1
  }
  const signed = (n: number, digits: number) => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`
  const heapGrowth = heap[2]!.liveMiB - heap[1]!.liveMiB
  const perRequest = (heapGrowth * 1024 * 1024) / runs[1]!.result.requests.total
  console.log(`heap after GC in the second run: ${signed(heapGrowth, 1)} MiB (${signed(perRequest, 0)} bytes a request)`)
  const [first, second] = runs.map(({ memory }) => memory.at(-1)!)
  console.log(`RSS in the second run: ${signed(second! - first!, 0)} MiB (×${(second! / first!).toFixed(2)} of the first run's end)`)
})
