import { buildReportDocuments } from '../emulators/seed/reports/seed-reports.ts'
const t = performance.now()
const r = await buildReportDocuments()
console.log('built in', Math.round(performance.now() - t), 'ms', r.findings, r.scans, r.documents.size)
const kinds = new Map<string, number>()
for (const path of r.documents.keys()) { const parts = path.split('/'); const k = parts.filter((_, i) => i % 2 === 0).join('/'); kinds.set(k, (kinds.get(k) ?? 0) + 1) }
console.log(kinds)
const statuses = new Map<string, number>()
for (const [path, d] of r.documents) if (/^companies\/acme\/findings\/[^/]+$/.test(path)) statuses.set(String(d.status), (statuses.get(String(d.status)) ?? 0) + 1)
console.log(statuses)
