// The demo library of finding templates for the local seed: what a security consultancy keeps
// ready for its reports, as files of the product's JSON export (template-transfer.ts), one per
// service under ./finding-templates/. A template shared by several services lives in the file of
// the service it is mostly written for. The product's importer reads them, so a file it would
// refuse stops the seed. The importer leaves createdAt, updatedAt and updatedBy to the library;
// the seed takes them from the file, so reruns write identical documents.
import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import type { FindingTemplate } from '#domain/finding-template.ts'
import type { ServiceId } from '#domain/services.ts'
import { planTemplateImport } from '#domain/template-transfer.ts'

/** The files in the order the library was written (the order of their timestamps). */
export const DEMO_TEMPLATE_FILES: readonly { service: ServiceId; fileName: string }[] = [
  { service: 'projectmariana', fileName: 'projectmariana.json' },
  { service: 'password_cracking', fileName: 'password-cracking.json' },
  { service: 'dast', fileName: 'dast.json' },
  { service: 'network', fileName: 'network.json' },
  { service: 'cloud', fileName: 'cloud.json' },
]

const IsoTimeSchema = v.pipe(v.string(), v.isoTimestamp('Give the time in ISO 8601'), v.transform(Date.parse))

/** What the export writes beside each template's content, and the importer does not read. */
const ExportStampsSchema = v.object({
  templates: v.array(v.object({ createdAt: IsoTimeSchema, updatedAt: IsoTimeSchema, updatedBy: v.pipe(v.string(), v.nonEmpty()) })),
})

/**
 * The templates of one export file, as the importer reads them and stamped as the file says.
 * `library` holds the templates read before: a slug may appear once across all files.
 */
export function templatesOfExport(file: { name: string; text: string }, library: readonly FindingTemplate[]): FindingTemplate[] {
  const plan = planTemplateImport(file, library)
  if (!plan.ok) throw new Error(`${file.name}: ${plan.error}`)
  const notNew = plan.rows.find((row) => row.outcome !== 'created')
  if (notNew)
    throw new Error(
      `${file.name}, template ${notNew.row} (${notNew.slug ?? 'no slug'}): ${notNew.reason ?? 'its slug is already in the library'}`,
    )
  const stamps = v.safeParse(ExportStampsSchema, JSON.parse(file.text))
  if (!stamps.success) throw new Error(`${file.name}: ${v.summarize(stamps.issues)}`)
  // Every row was created: the writes follow the file's templates one to one.
  return plan.writes.map(({ template }, index) => {
    const { createdAt, updatedAt, updatedBy } = stamps.output.templates[index]!
    return { ...template, createdAt, updatedAt, updatedBy }
  })
}

export interface DemoTemplateFile {
  service: ServiceId
  fileName: string
  text: string
  templates: FindingTemplate[]
}

export function loadDemoTemplateFiles(): DemoTemplateFile[] {
  const loaded: DemoTemplateFile[] = []
  for (const { service, fileName } of DEMO_TEMPLATE_FILES) {
    const text = readFileSync(new URL(`./finding-templates/${fileName}`, import.meta.url), 'utf8')
    const templates = templatesOfExport(
      { name: fileName, text },
      loaded.flatMap((file) => file.templates),
    )
    loaded.push({ service, fileName, text, templates })
  }
  return loaded
}

export const DEMO_FINDING_TEMPLATES: readonly FindingTemplate[] = loadDemoTemplateFiles().flatMap((file) => file.templates)
