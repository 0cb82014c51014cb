// template_mappings/{id}: which finding template a scanner's rule maps to, per service, kept by
// analysts as they review imports (a ZAP plugin id, a Nuclei template id, an NVT OID, a Prowler
// check). An import gives every finding of a mapped rule its template; unmapped ones are flagged.
// Analysts read them; the import callables write them.
import * as v from 'valibot'
import { sha256Hex } from './fingerprints.ts'
import { ServiceIdSchema, type ServiceId } from './services.ts'
import { TimestampSchema } from './stored.ts'

export const TEMPLATE_MAPPINGS_COLLECTION = 'template_mappings'

/** A mapping's id: a hash of the service and the rule, whose ids may hold any character. */
export const templateMappingId = async (service: ServiceId, ruleId: string) =>
  (await sha256Hex(`${service}\u001f${ruleId.trim().toLowerCase()}`)).slice(0, 32)
export const templateMappingPath = (id: string) => `${TEMPLATE_MAPPINGS_COLLECTION}/${id}`

const StoredTemplateMappingSchema = v.object({
  service: ServiceIdSchema,
  ruleId: v.string(),
  templateSlug: v.string(),
  updatedAt: TimestampSchema,
  updatedBy: v.string(),
})
export type TemplateMapping = v.InferOutput<typeof StoredTemplateMappingSchema> & { id: string }

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
