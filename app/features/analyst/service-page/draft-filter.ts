// What the draft review narrows its findings to. Each choice is a condition of the Firestore query
// (analyst-live.ts), so a draft of any size is filtered by the server, never in the browser.
import type { Severity } from '#domain/template-vocabulary.ts'

export const DRAFT_SHOWS = ['all', 'unmapped', 'false_positive'] as const
export type DraftShow = (typeof DRAFT_SHOWS)[number]

export const draftShowLabels: Record<DraftShow, string> = {
  all: 'All findings',
  unmapped: 'Without a template',
  false_positive: 'False positives',
}

export interface DraftFilter {
  show: DraftShow
  /** One severity, or all of them (the most severe first). */
  severity: Severity | null
  /** One scanner rule, exactly as the table shows it; '' for every rule. */
  ruleId: string
}

export const ALL_DRAFT_FINDINGS: DraftFilter = { show: 'all', severity: null, ruleId: '' }

export const narrows = (filter: DraftFilter): boolean => filter.show !== 'all' || filter.severity !== null || filter.ruleId !== ''
