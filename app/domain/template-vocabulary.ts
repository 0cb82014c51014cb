// The words of a finding template that pages show without loading the template's rules: severities
// and statuses. Kept apart from finding-template.ts, whose CVSS and Markdown libraries are large,
// so that route definitions (loaded with the first page) and the callables' contracts can use them.
import * as v from 'valibot'

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

/** Lowercase letters and digits in words joined by single hyphens: slugs and tags. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A slug is a document id and a URL segment. */
export const TEMPLATE_SLUG_MAX_LENGTH = 80

export const TemplateSlugSchema = v.pipe(
  v.string('Enter a slug'),
  v.trim(),
  v.minLength(1, 'Enter a slug'),
  v.maxLength(TEMPLATE_SLUG_MAX_LENGTH, `Keep the slug to ${TEMPLATE_SLUG_MAX_LENGTH} characters`),
  v.regex(SLUG_PATTERN, 'A slug is lowercase letters and digits joined by single hyphens, like sql-injection'),
)
