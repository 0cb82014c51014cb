// template_mappings/{id}: which finding template a scanner's rule maps to, per service, kept by
// analysts as they review imports (a ZAP plugin id, a Nuclei template id, an NVT OID, a Prowler
// check). An import gives every finding of a mapped rule its template; unmapped ones are flagged.
// Analysts read them; the import callables write them.
import * as v from 'valibot'
import { sha256Hex } from './fingerprints.ts'
import { ServiceIdSchema, type ServiceId } from './services.ts'
import { templateFromDocument } from './template-library.ts'
import { TimestampSchema } from './stored.ts'

export const TEMPLATE_MAPPINGS_COLLECTION = 'template_mappings'

/** A mapping's id: a hash of the service and the rule, whose ids may hold any character. */
export const templateMappingId = async (service: ServiceId, ruleId: string) =>
  (await sha256Hex(`${service}\u001f${ruleId.trim().toLowerCase()}`)).slice(0, 32)
export const templateMappingPath = (id: string) => `${TEMPLATE_MAPPINGS_COLLECTION}/${id}`

const StoredTemplateMappingSchema = v.object({
  service: ServiceIdSchema,
  ruleId: v.string(),
  /** What the rule's findings were called when it was mapped; older mappings have none. */
  ruleTitle: v.optional(v.string()),
  templateSlug: v.string(),
  /** The template's title when it was mapped; older mappings have none. */
  templateTitle: v.optional(v.string()),
  updatedAt: TimestampSchema,
  updatedBy: v.string(),
})
export type TemplateMapping = v.InferOutput<typeof StoredTemplateMappingSchema> & { id: string }

const TITLE_KEPT = 200

/**
 * A mapping as stored (its time is the writer's to add), with the names a person reads beside the
 * ids: the rule's findings' title and the template's, as they were when it was mapped.
 */
export function storedTemplateMapping(mapping: {
  service: ServiceId
  ruleId: string
  ruleTitle: string | undefined
  /** The template's slug and its stored document. */
  template: { slug: string; data: unknown }
  by: string
}) {
  const { service, ruleId, ruleTitle, template, by } = mapping
  const read = templateFromDocument(template.slug, template.data)
  const templateTitle = read.ok ? read.template.title : undefined
  return {
    service,
    ruleId,
    templateSlug: template.slug,
    ...(ruleTitle?.trim() ? { ruleTitle: ruleTitle.trim().slice(0, TITLE_KEPT) } : {}),
    ...(templateTitle?.trim() ? { templateTitle: templateTitle.trim().slice(0, TITLE_KEPT) } : {}),
    updatedBy: by,
  }
}

export function templateMappingFromDocument(id: string, data: unknown): TemplateMapping | null {
  const parsed = v.safeParse(StoredTemplateMappingSchema, data)
  return parsed.success ? { id, ...parsed.output } : null
}

/** A template as the mapping picker offers it. */
export interface TemplateChoice {
  slug: string
  title: string
  cwe: readonly string[]
  /** The services it is written for; none listed: any service. */
  services?: readonly string[]
}

/** Whether a template is offered for a service's findings: written for it, or for no service in particular. */
export const choiceFits = (template: TemplateChoice, service: string) => !template.services?.length || template.services.includes(service)

const cweNumber = (cwe: string) => cwe.replace(/^CWE-/i, '').trim()
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [])

/**
 * Templates that likely fit a finding, best first: those sharing a CWE with it, then those whose
 * title shares most words with the finding's title or rule id. At most `count`.
 */
export function suggestTemplates(
  finding: { title: string; ruleId: string; cwe: readonly string[] },
  templates: readonly TemplateChoice[],
  count = 5,
): TemplateChoice[] {
  const cwes = new Set(finding.cwe.map(cweNumber))
  const said = new Set([...words(finding.title), ...words(finding.ruleId)])
  return templates
    .map((template) => {
      const sharedCwe = template.cwe.some((c) => cwes.has(cweNumber(c))) ? 100 : 0
      const sharedWords = [...words(template.title)].filter((w) => said.has(w)).length
      return { template, score: sharedCwe + sharedWords }
    })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.template.title.localeCompare(b.template.title))
    .slice(0, count)
    .map(({ template }) => template)
}
