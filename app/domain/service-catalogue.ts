// services/{id}: the platform's catalogue of the five services (/admin/app/services): the label and
// description people read, whether a new company gets the service, and the default remediation
// targets (days per severity) that publication starts each finding's SLA clock with. A service
// without a document reads as services.ts and DEFAULT_SLA_POLICY say, so the catalogue is the one
// source of both once written. Written by the functions only (saveService); anyone signed in reads.
import * as v from 'valibot'
import type { CompanyFlag } from './access.ts'
import { serviceById, ServiceIdSchema, services, type ServiceId } from './services.ts'
import { DEFAULT_SLA_POLICY, type SlaPolicy } from './sla.ts'
import { TimestampSchema } from './stored.ts'
import { SEVERITIES, type Severity } from './template-vocabulary.ts'

export const SERVICES_COLLECTION = 'services'

export const servicePath = (id: ServiceId) => `${SERVICES_COLLECTION}/${id}`

/** The company switches that turn a service on (its results and, where it has one, its stats). */
export const SERVICE_COMPANY_FLAGS: Record<ServiceId, readonly CompanyFlag[]> = {
  projectmariana: ['enableViewProjectMarianaResults', 'enableViewProjectMarianaStats'],
  password_cracking: ['enableViewResultsPasswordCracking'],
  dast: ['enableDast'],
  network: ['enableViewResultsNetwork'],
  cloud: ['enableViewCloudScanStats', 'enableViewCloudScanResults'],
}

export const SERVICE_LIMITS = { label: 60, description: 600, maxSlaDays: 730 } as const

export const serviceMessages = {
  labelRequired: 'Enter the service name.',
  labelTooLong: `A service name has at most ${SERVICE_LIMITS.label} characters.`,
  descriptionTooLong: `A description has at most ${SERVICE_LIMITS.description} characters.`,
  slaDays: `A remediation target is a whole number of days from 1 to ${SERVICE_LIMITS.maxSlaDays}, or none.`,
  nothingToChange: 'Change at least one thing.',
} as const

export const ServiceLabelSchema = v.pipe(
  v.string(serviceMessages.labelRequired),
  v.trim(),
  v.minLength(1, serviceMessages.labelRequired),
  v.maxLength(SERVICE_LIMITS.label, serviceMessages.labelTooLong),
)

export const ServiceDescriptionSchema = v.pipe(
  v.string(serviceMessages.descriptionTooLong),
  v.trim(),
  v.maxLength(SERVICE_LIMITS.description, serviceMessages.descriptionTooLong),
)

/** Days to fix a finding of one severity; null: no target. */
export const SlaDaysSchema = v.nullable(
  v.pipe(
    v.number(serviceMessages.slaDays),
    v.integer(serviceMessages.slaDays),
    v.minValue(1, serviceMessages.slaDays),
    v.maxValue(SERVICE_LIMITS.maxSlaDays, serviceMessages.slaDays),
  ),
)

const SlaChangesSchema = v.strictObject(
  Object.fromEntries(SEVERITIES.map((severity) => [severity, v.optional(SlaDaysSchema)])) as Record<
    Severity,
    v.OptionalSchema<typeof SlaDaysSchema, undefined>
  >,
)

export interface ServiceCatalogueEntry {
  id: ServiceId
  label: string
  description: string
  /** A new company starts with this service's switches on. */
  defaultEnabled: boolean
  /** Default remediation targets in days per severity. */
  sla: SlaPolicy
}

const StoredServiceSchema = v.object({
  label: v.optional(ServiceLabelSchema),
  description: v.optional(v.string()),
  defaultEnabled: v.optional(v.boolean()),
  sla: v.optional(v.record(v.string(), v.unknown())),
  updatedAt: v.optional(v.nullable(TimestampSchema)),
  updatedBy: v.optional(v.string()),
})

/** The built-in entry of a service: its name in services.ts, the platform's SLA defaults. */
export function defaultCatalogueEntry(id: ServiceId): ServiceCatalogueEntry {
  return { id, label: serviceById(id)?.label ?? id, description: '', defaultEnabled: false, sla: { ...DEFAULT_SLA_POLICY } }
}

/** A service's catalogue entry from its document (or none): each field falls back to the built-in one alone. */
export function catalogueEntryFromDocument(id: ServiceId, data: unknown): ServiceCatalogueEntry {
  const entry = defaultCatalogueEntry(id)
  const parsed = v.safeParse(StoredServiceSchema, data ?? {})
  if (!parsed.success) return entry
  const stored = parsed.output
  const sla = { ...entry.sla }
  for (const severity of SEVERITIES) {
    const days = v.safeParse(SlaDaysSchema, stored.sla?.[severity])
    if (stored.sla && severity in stored.sla && days.success) sla[severity] = days.output
  }
  return {
    id,
    label: stored.label ?? entry.label,
    description: stored.description ?? entry.description,
    defaultEnabled: stored.defaultEnabled ?? entry.defaultEnabled,
    sla,
  }
}

/** The whole catalogue, in the order of services.ts, from the documents found (by id). */
export const catalogueFrom = (documents: ReadonlyMap<string, unknown>): ServiceCatalogueEntry[] =>
  services.map((service) => catalogueEntryFromDocument(service.id, documents.get(service.id)))

/** The switches a new company starts with: those of the services new companies get. */
export function defaultCompanyFlags(catalogue: readonly ServiceCatalogueEntry[]): Record<CompanyFlag, boolean> {
  const on = new Set(catalogue.filter((entry) => entry.defaultEnabled).flatMap((entry) => SERVICE_COMPANY_FLAGS[entry.id]))
  return {
    enableViewProjectMarianaResults: on.has('enableViewProjectMarianaResults'),
    enableViewProjectMarianaStats: on.has('enableViewProjectMarianaStats'),
    enableDast: on.has('enableDast'),
    // Triggering scans from a pipeline is a choice made per company, never a default.
    enableDastTriggering: false,
    enableViewResultsNetwork: on.has('enableViewResultsNetwork'),
    enableViewCloudScanStats: on.has('enableViewCloudScanStats'),
    enableViewCloudScanResults: on.has('enableViewCloudScanResults'),
    enableViewResultsPasswordCracking: on.has('enableViewResultsPasswordCracking'),
  }
}

/** One autosaved field's change: only what is named changes. */
export const SaveServiceRequestSchema = v.pipe(
  v.strictObject({
    service: ServiceIdSchema,
    label: v.optional(ServiceLabelSchema),
    description: v.optional(ServiceDescriptionSchema),
    defaultEnabled: v.optional(v.boolean()),
    sla: v.optional(SlaChangesSchema),
  }),
  v.check(
    (request) =>
      request.label !== undefined ||
      request.description !== undefined ||
      request.defaultEnabled !== undefined ||
      Object.values(request.sla ?? {}).some((days) => days !== undefined),
    serviceMessages.nothingToChange,
  ),
)
export type SaveServiceRequest = v.InferInput<typeof SaveServiceRequestSchema>
export const SaveServiceResponseSchema = v.strictObject({ changed: v.boolean() })
