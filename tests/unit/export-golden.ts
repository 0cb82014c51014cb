// The findings the export writers' golden files were written from: every status, a password audit
// finding (its evidence never leaves), text a spreadsheet or a viewer would misread, a finding
// without a template, and histories. The files hold what the writers produced for them.
import type { Finding } from '#domain/findings.ts'
import type { FindingHistoryEntry } from '#domain/finding-history.ts'
import { exportFinding, exportHistory, T0 } from './export-fixtures.ts'

export const goldenFindings = (): Finding[] => [
  ...Array.from({ length: 11 }, (_, n) => exportFinding('dast', n)),
  exportFinding('dast', 11, { title: '=HYPERLINK("x"), "quoted"\nsecond line', templateSlug: undefined, tags: ['+tag', 'a,b'] }),
  exportFinding('dast', 12, { templateSlug: undefined, title: 'Finding 12: SQL injection', cvss: null }),
  exportFinding('password_cracking', 13, { evidence: 'hunter2', title: 'Weak password\u0007 bell' }),
]

export const goldenHistory = (): Map<string, FindingHistoryEntry[]> =>
  new Map(
    goldenFindings()
      .filter((_, n) => n % 3 === 0)
      .map((f) => [f.id, exportHistory(f)]),
  )

export const GOLDEN_AT = T0 + 41 * 86_400_000
