// The words of a finding template that pages show without loading the template's rules: severities
// and statuses. Kept apart from finding-template.ts, whose CVSS and Markdown libraries are large,
// so that route definitions (loaded with the first page) can use them.
/** Most severe first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

export const severityLabels: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Informational',
}

/** Higher is more severe: the search index sorts on it. */
export const severityRank = Object.fromEntries(SEVERITIES.map((severity, index) => [severity, SEVERITIES.length - index])) as Record<
  Severity,
  number
>

export const TEMPLATE_STATUSES = ['draft', 'ready', 'deprecated'] as const
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number]

export const templateStatusLabels: Record<TemplateStatus, string> = {
  draft: 'Draft',
  ready: 'Ready',
  deprecated: 'Deprecated',
}
