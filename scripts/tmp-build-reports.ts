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
const show = (p: string) => console.log(p, JSON.stringify(r.documents.get(p)).slice(0, 1500))
show('companies/acme/scans/dast-2026-11')
show('companies/acme/scans/password_cracking-2026-11')
show('companies/acme/service_stats/dast')
const someFinding = [...r.documents.keys()].find((p) => /^companies\/acme\/findings\/[^/]+$/.test(p) && r.documents.get(p)!.status === 'reopened')!
show(someFinding)
for (const p of [...r.documents.keys()].filter((p) => p.startsWith(someFinding + '/history/'))) show(p)
const acc = [...r.documents.keys()].find((p) => p.startsWith('companies/acme/assets/') && r.documents.get(p)!.type === 'account' && (r.documents.get(p)!.account as any).cracked)!
show(acc)
const acts = [...r.documents.keys()].filter((p) => p.startsWith('companies/acme/activity/')).slice(-5)
for (const p of acts) show(p)
