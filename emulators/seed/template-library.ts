// The seeded template library: the demo templates in finding_templates, their tag counters and
// references in finding_tags, a few findings of the demo companies that use templates, and the
// search index filled from Firestore directly, so search works as soon as the stack is up (the
// index trigger, firing for the same writes afterwards, finds nothing left to change).
import { isDeepStrictEqual } from 'node:util'
import { algoliasearch } from 'algoliasearch'
import { Timestamp, type Firestore, type WriteBatch } from 'firebase-admin/firestore'
import { searchRecordFromTemplate, type FindingTemplate } from '#domain/finding-template.ts'
import type { ServiceId } from '#domain/services.ts'
import {
  TAGS_COLLECTION,
  tagCounterPath,
  tagReferencePath,
  templateContentDocument,
  templateFromDocument,
  templatePath,
  TEMPLATES_COLLECTION,
} from '#domain/template-library.ts'
import { algoliaHosts, applyTemplateIndexSettings, TEMPLATES_INDEX } from '#domain/template-search.ts'
import type { SearchEmulatorConfig } from '../search/config.ts'
import { DEMO_FINDING_TEMPLATES } from './finding-templates.ts'

/** Who last changed the demo findings (and, as their files say, the demo templates): the senior analyst. */
export const DEMO_TEMPLATE_EDITOR = 'senior@sectest.example'

/** A demo template's document: the content the import callable writes, stamped as its file says. */
export function demoTemplateDocument(template: FindingTemplate): Record<string, unknown> {
  const { createdAt, updatedAt, updatedBy, ...content } = template
  return {
    ...templateContentDocument(content),
    createdAt: Timestamp.fromMillis(createdAt),
    updatedAt: Timestamp.fromMillis(updatedAt),
    updatedBy,
  }
}

export interface DemoFinding {
  company: string
  id: string
  service: ServiceId
  templateSlug: string
  asset: string
  evidence: string
  status: 'open' | 'retest requested' | 'fixed' | 'risk accepted' | 'false positive'
  firstSeen: string
  lastSeen: string
}

/** Findings that use demo templates (one template twice): a template in use cannot be deleted. */
export const DEMO_FINDINGS: readonly DemoFinding[] = [
  {
    company: 'acme',
    id: 'acme-exposed-git',
    service: 'dast',
    templateSlug: 'exposed-git-directory',
    asset: 'https://shop.acme.example/.git/',
    evidence: '`GET /.git/HEAD` answered `ref: refs/heads/main` with status 200.',
    status: 'open',
    firstSeen: '2025-09-08T09:12:00Z',
    lastSeen: '2025-09-29T09:05:00Z',
  },
  {
    company: 'acme',
    id: 'acme-rdp-gateway',
    service: 'network',
    templateSlug: 'rdp-exposed-to-internet',
    asset: '203.0.113.10:3389',
    evidence: 'TCP 3389 open; the service answered an RDP negotiation request (NLA required).',
    status: 'retest requested',
    firstSeen: '2025-08-18T14:30:00Z',
    lastSeen: '2025-09-22T14:28:00Z',
  },
  {
    company: 'globex',
    id: 'globex-rdp-branch',
    service: 'network',
    templateSlug: 'rdp-exposed-to-internet',
    asset: '198.51.100.24:3389',
    evidence: 'TCP 3389 open to the internet on the branch office firewall.',
    status: 'open',
    firstSeen: '2025-09-15T10:00:00Z',
    lastSeen: '2025-09-30T10:02:00Z',
  },
  {
    company: 'globex',
    id: 'globex-assets-takeover',
    service: 'projectmariana',
    templateSlug: 'subdomain-takeover-dangling-cname-s3',
    asset: 'assets.globex.example',
    evidence: 'CNAME to `globex-assets.s3.amazonaws.com`; the bucket answers `NoSuchBucket`.',
    status: 'fixed',
    firstSeen: '2025-07-01T07:45:00Z',
    lastSeen: '2025-07-21T07:40:00Z',
  },
  {
    company: 'initech',
    id: 'initech-domain-admin',
    service: 'password_cracking',
    templateSlug: 'domain-admin-password-cracked',
    asset: 'INITECH\\adm-backup',
    evidence: 'The NT hash of a Domain Admins member was cracked in 41 minutes with a wordlist and rules.',
    status: 'risk accepted',
    firstSeen: '2025-09-02T16:20:00Z',
    lastSeen: '2025-09-02T16:20:00Z',
  },
]

export const demoFindingPath = (finding: DemoFinding) => `companies/${finding.company}/findings/${finding.id}`

export function demoFindingDocument(finding: DemoFinding): Record<string, unknown> {
  const template = DEMO_FINDING_TEMPLATES.find((demo) => demo.slug === finding.templateSlug)
  if (!template) throw new Error(`Demo finding ${finding.id} uses the unknown template ${finding.templateSlug}`)
  const firstSeen = Timestamp.fromDate(new Date(finding.firstSeen))
  const lastSeen = Timestamp.fromDate(new Date(finding.lastSeen))
  return {
    service: finding.service,
    scanId: `${finding.company}-${finding.service}-${finding.firstSeen.slice(0, 10)}`,
    templateSlug: template.slug,
    title: template.title,
    severity: template.severity,
    ...(template.cvss ? { cvss: template.cvss } : {}),
    asset: finding.asset,
    evidence: finding.evidence,
    status: finding.status,
    history: [{ status: finding.status, at: lastSeen, by: DEMO_TEMPLATE_EDITOR }],
    firstSeen,
    lastSeen,
    updatedAt: lastSeen,
    updatedBy: DEMO_TEMPLATE_EDITOR,
  }
}

// A batch holds at most 500 writes.
async function commitInBatches(db: Firestore, writes: readonly ((batch: WriteBatch) => void)[]): Promise<void> {
  for (let start = 0; start < writes.length; start += 500) {
    const batch = db.batch()
    for (const write of writes.slice(start, start + 500)) write(batch)
    await batch.commit()
  }
}

/**
 * Writes each document whole where it differs from what is stored. Unchanged ones are left alone:
 * a rerun fires no trigger for them.
 */
async function setWhereChanged(
  db: Firestore,
  documents: readonly (readonly [path: string, data: Record<string, unknown>])[],
): Promise<void> {
  const stored = await db.getAll(...documents.map(([path]) => db.doc(path)))
  const changed = documents.filter(([, data], index) => !isDeepStrictEqual(stored[index]?.data(), data))
  await commitInBatches(
    db,
    changed.map(
      ([path, data]) =>
        (batch: WriteBatch) =>
          batch.set(db.doc(path), data),
    ),
  )
}

export interface LibrarySummary {
  templates: number
  tags: number
  findings: number
}

/**
 * Puts back the demo templates and findings, then rebuilds finding_tags from every template in the
 * library (demo or not), so each count equals its references whatever was edited.
 */
export async function seedTemplateLibrary(db: Firestore): Promise<LibrarySummary> {
  await setWhereChanged(db, [
    ...DEMO_FINDING_TEMPLATES.map((template) => [templatePath(template.slug), demoTemplateDocument(template)] as const),
    ...DEMO_FINDINGS.map((finding) => [demoFindingPath(finding), demoFindingDocument(finding)] as const),
  ])

  await db.recursiveDelete(db.collection(TAGS_COLLECTION))
  const slugsByTag = new Map<string, string[]>()
  for (const template of (await db.collection(TEMPLATES_COLLECTION).get()).docs) {
    for (const tag of new Set<unknown>(template.get('tags') ?? [])) {
      if (typeof tag === 'string') slugsByTag.set(tag, [...(slugsByTag.get(tag) ?? []), template.id])
    }
  }
  // Documents arrive in slug order: the last slug of each tag is the same on every run.
  await commitInBatches(
    db,
    [...slugsByTag].flatMap(([tag, slugs]) => [
      (batch: WriteBatch) => batch.set(db.doc(tagCounterPath(tag)), { tagCount: slugs.length, lastSlug: slugs.at(-1) }),
      ...slugs.map((slug) => (batch: WriteBatch) => batch.set(db.doc(tagReferencePath(tag, slug)), { slug })),
    ]),
  )
  return { templates: DEMO_FINDING_TEMPLATES.length, tags: slugsByTag.size, findings: DEMO_FINDINGS.length }
}

/** Configures the templates index and fills it with every readable template, replacing what it held. */
export async function indexTemplateLibrary(db: Firestore, search: SearchEmulatorConfig): Promise<number> {
  const client = algoliasearch(search.appId, search.adminApiKey, {
    hosts: algoliaHosts({ hosts: [`${search.host}:${search.port}`], protocol: 'http' }, 'readWrite'),
  })
  await applyTemplateIndexSettings(client)
  const records = (await db.collection(TEMPLATES_COLLECTION).get()).docs.flatMap((document) => {
    const stored = templateFromDocument(document.id, document.data())
    return stored.ok ? [searchRecordFromTemplate(stored.template)] : []
  })
  await client.clearObjects({ indexName: TEMPLATES_INDEX })
  // Copied into plain objects: the client takes records as string-keyed maps.
  await client.saveObjects({ indexName: TEMPLATES_INDEX, objects: records.map((record) => ({ ...record })), waitForTasks: true })
  return records.length
}
