// `npm run bench:search`: the templates search, on the whole local stack in one run.
// 1. Latency of the list's searches (the same multi-index requests the page sends: hits, facets,
//    disjunctive counts) over a library of 5,000 templates, typed letter by letter.
// 2. The time from a template written to Firestore to its appearance in search results, through
//    the index trigger in the Functions emulator.
import { FieldValue } from 'firebase-admin/firestore'
import * as v from 'valibot'
import { searchRecordFromTemplate } from '#domain/template-search-record.ts'
import { TEMPLATES_INDEX } from '#domain/template-search.ts'
import { TemplateListSearchSchema, templateSearchRequests } from '../../app/features/templates/template-query.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { searchEmulatorAdmin } from '../../emulators/search/admin-client.ts'
import { DEMO_FINDING_TEMPLATES } from '../../emulators/seed/finding-templates.ts'
import { withStack } from './preview-server.ts'

const LIBRARY_SIZE = Number(process.env.BENCH_TEMPLATES ?? 5000)
const WRITES = Number(process.env.BENCH_WRITES ?? 10)
const TYPED = [
  's',
  'sm',
  'smb',
  'smb s',
  'smb si',
  'smb sig',
  'smb signing',
  'x',
  'xs',
  'xss',
  'sql inj',
  'cwe-79',
  'tls 1.0',
  'public bucket',
]

const quantile = (samples: number[], q: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

await withStack(async () => {
  const search = searchEmulatorAdmin()

  // A library of LIBRARY_SIZE: the demo templates, then variants of them under new slugs.
  const demo = DEMO_FINDING_TEMPLATES
  const records = Array.from({ length: LIBRARY_SIZE }, (_, i) => {
    const base = demo[i % demo.length]!
    const round = Math.floor(i / demo.length)
    const template = round === 0 ? base : { ...base, slug: `${base.slug}-v${round}`, title: `${base.title} (variant ${round})` }
    return searchRecordFromTemplate({ ...template, createdAt: 0, updatedAt: i, updatedBy: 'bench@sectest.example' })
  })
  const indexing = Date.now()
  await search.saveObjects({ indexName: TEMPLATES_INDEX, objects: records.map((record) => ({ ...record })), waitForTasks: true })
  console.log(`\nindexed ${LIBRARY_SIZE} templates in ${Date.now() - indexing} ms`)

  const latencies: number[] = []
  for (let round = 0; round < 5; round++) {
    for (const [i, q] of TYPED.entries()) {
      const state = v.parse(TemplateListSearchSchema, {
        q,
        severity: i % 3 === 0 ? ['high', 'critical'] : undefined,
        sort: i % 4 === 0 ? 'severity' : 'relevance',
      })
      const started = performance.now()
      await search.search({ requests: templateSearchRequests(state) })
      latencies.push(performance.now() - started)
    }
  }
  const median = quantile(latencies, 0.5)
  console.log(
    `search over ${LIBRARY_SIZE} templates, ${latencies.length} list searches: median ${median.toFixed(1)} ms, p95 ${quantile(latencies, 0.95).toFixed(1)} ms`,
  )
  console.log(`median against the one-second promise: ×${(median / 1000).toFixed(3)}`)

  const { db } = sharedAdmin()
  const delays: number[] = []
  for (let i = 0; i < WRITES; i++) {
    const slug = `bench-written-${Date.now()}-${i}`
    const title = `Benchmark written template ${slug}`
    const result = await db.doc(`finding_templates/${slug}`).set({
      title,
      severity: 'low',
      cwe: [],
      description: 'Written by the search benchmark.',
      impact: '',
      remediation: '',
      references: [],
      tags: [],
      services: ['dast'],
      status: 'draft',
      createdAt: FieldValue.serverTimestamp(),
      updatedAt: FieldValue.serverTimestamp(),
      updatedBy: 'bench@sectest.example',
    })
    const committed = result.writeTime.toMillis()
    for (;;) {
      const { results } = await search.search<{ objectID: string }>({
        requests: [{ indexName: TEMPLATES_INDEX, query: slug, hitsPerPage: 1 }],
      })
      const first = results[0]
      if (first && 'hits' in first && first.hits.some((hit: { objectID: string }) => hit.objectID === slug)) break
      if (Date.now() - committed > 60_000) throw new Error(`${slug} never appeared in search`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    delays.push(Date.now() - committed)
  }
  console.log(`template write → in search results, ${WRITES} writes: median ${quantile(delays, 0.5)} ms, p95 ${quantile(delays, 0.95)} ms`)
})
