// A template as the search index holds it. Apart from the template itself: the excerpt reads the
// description with the Markdown parser, which the pages that only validate templates do not load.
import { alphabeticalOrderFields } from './alphabetical-order.ts'
import { TEMPLATE_LIMITS, type FindingTemplate } from './finding-template.ts'
import { markdownToPlainText } from './markdown.ts'
import type { ServiceId } from './services.ts'
import { severityRank, type Severity, type TemplateStatus } from './template-vocabulary.ts'

/** The search index's record of a template (objectID is the slug). */
export interface TemplateSearchRecord {
  objectID: string
  title: string
  severity: Severity
  severityRank: number
  cvssScore: number | null
  cwe: string[]
  tags: string[]
  services: ServiceId[]
  status: TemplateStatus
  /** The description as plain text, cut at a word boundary. */
  excerpt: string
  /** Epoch milliseconds. */
  updatedAt: number
  /** The title in alphabetical order as numbers (alphabeticalOrder), for "Title A to Z": the search service sorts by numbers only. */
  titleOrder0: number
  titleOrder1: number
  titleOrder2: number
}

/** At most `limit` characters of one-line text, the ellipsis included, ending after a whole word. */
function excerptOf(text: string, limit: number): string {
  if (text.length <= limit) return text
  const lastSpace = text.lastIndexOf(' ', limit - 1)
  return `${lastSpace > 0 ? text.slice(0, lastSpace) : text.slice(0, limit - 1)}…`
}

export function searchRecordFromTemplate(template: FindingTemplate): TemplateSearchRecord {
  return {
    objectID: template.slug,
    title: template.title,
    severity: template.severity,
    severityRank: severityRank[template.severity],
    cvssScore: template.cvss?.score ?? null,
    cwe: template.cwe,
    tags: template.tags,
    services: template.services,
    status: template.status,
    excerpt: excerptOf(markdownToPlainText(template.description), TEMPLATE_LIMITS.excerptLength),
    updatedAt: template.updatedAt,
    ...alphabeticalOrderFields('title', template.title),
  }
}
