// The demo library of finding templates for the local seed (`finding_templates/{slug}`): what a
// security consultancy keeps ready for its reports, one file per service under ./finding-templates/.
// A template shared by several services lives in the file of the service it is mostly written for.

import type { ServiceId } from '#domain/services.ts'
import { CLOUD_TEMPLATES } from './finding-templates/cloud.ts'
import { DAST_TEMPLATES } from './finding-templates/dast.ts'
import { NETWORK_TEMPLATES } from './finding-templates/network.ts'
import { PASSWORD_CRACKING_TEMPLATES } from './finding-templates/password-cracking.ts'
import { PROJECTMARIANA_TEMPLATES } from './finding-templates/projectmariana.ts'

export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info'
export type FindingTemplateStatus = 'draft' | 'ready' | 'deprecated'

export interface DemoFindingTemplate {
  /** Lowercase kebab case, unique, at most 80 characters; the document id. */
  slug: string
  title: string
  severity: FindingSeverity
  /** Base metrics only, `CVSS:3.1/…` or `CVSS:4.0/…`; null for info findings. */
  cvssVector: string | null
  /** CWE ids such as `CWE-79`. */
  cwe: string[]
  /** Markdown. */
  description: string
  /** Markdown. */
  impact: string
  /** Markdown; may use lists and inline code. */
  remediation: string
  /** https URLs. */
  references: string[]
  /** Lowercase kebab-case tags from a shared vocabulary. */
  tags: string[]
  services: ServiceId[]
  status: FindingTemplateStatus
}

export const DEMO_FINDING_TEMPLATES: readonly DemoFindingTemplate[] = [
  ...PROJECTMARIANA_TEMPLATES,
  ...PASSWORD_CRACKING_TEMPLATES,
  ...DAST_TEMPLATES,
  ...NETWORK_TEMPLATES,
  ...CLOUD_TEMPLATES,
]
