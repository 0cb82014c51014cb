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
