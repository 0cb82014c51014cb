// The statuses a finding passes through (the workflow is in finding-workflow.ts, the labels in findings.ts).

/**
 * Where a finding stands. Published findings start `open`. A scan that no longer sees an open
 * finding makes it `not_detected` (never `fixed`: only a retest or an analyst says fixed); a
 * finding seen again after `fixed` is `reopened` and flagged as a regression.
 */
export const FINDING_STATUSES = [
  'open',
  'in_remediation',
  'retest_requested',
  'partially_fixed',
  'reopened',
  'disputed',
  'acceptance_requested',
  'risk_accepted',
  'not_detected',
  'fixed',
  'false_positive',
  'duplicate',
  'out_of_scope',
] as const
export type FindingStatus = (typeof FINDING_STATUSES)[number]
