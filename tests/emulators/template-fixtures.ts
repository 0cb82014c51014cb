// Shared by the template tests: templates written as the app stores them, the search emulator seen
// with its admin key, and the check that tag counters, references and templates agree.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Algoliasearch } from 'algoliasearch'
import { Timestamp, type Firestore } from 'firebase-admin/firestore'
import { expect, vi } from 'vitest'
import type { TemplateInput } from '#domain/finding-template.ts'
import { searchRecordFromTemplate, type TemplateSearchRecord } from '#domain/template-search-record.ts'
import {
  storedTags,
  TAGS_COLLECTION,
  tagCounterPath,
  templateContentDocument,
  templateFromDocument,
  templatePath,
  TEMPLATES_COLLECTION,
} from '#domain/template-library.ts'
import type { SearchHosts } from '#domain/template-library-calls.ts'
import { TEMPLATES_INDEX } from '#domain/template-search.ts'
import { PROJECT_ID, ROOT } from '../../emulators/firebase/env.ts'
import { searchEmulatorAdmin } from '../../emulators/search/admin-client.ts'
import { SEARCH_EMULATOR_DEFAULTS } from '../../emulators/search/config.ts'

/** The search emulator global-setup.ts runs, where the functions' settings point. */
export const SEARCH_HOSTS: SearchHosts = { hosts: [`${SEARCH_EMULATOR_DEFAULTS.host}:${SEARCH_EMULATOR_DEFAULTS.port}`], protocol: 'http' }

/** How long the index trigger may take to catch up, a backlog of earlier files included. */
export const INDEX_TIMEOUT_MS = 45_000

/** Waits for the index trigger to have done what `assertion` checks. */
export const eventually = (assertion: () => Promise<void>) => vi.waitFor(assertion, { timeout: INDEX_TIMEOUT_MS, interval: 250 })

export function searchAdmin(): Algoliasearch {
  return searchEmulatorAdmin()
}

/** The settings the Functions emulator gives the functions (functions/.env.demo-sectest). */
export function functionsSettings(): Record<string, string> {
  const lines = readFileSync(path.join(ROOT, 'functions', `.env.${PROJECT_ID}`), 'utf8').split('\n')
  return Object.fromEntries(
    lines.flatMap((line) => {
      const [, name, value] = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim()) ?? []
      return name === undefined || value === undefined ? [] : [[name, value.replace(/^"(.*)"$/, '$1')]]
    }),
  )
}

/** A slug (and tag) prefix of one test run: files share the emulators. */
export const runId = () => `t${randomUUID().slice(0, 8)}`

export function templateInput(slug: string, overrides: Partial<TemplateInput> = {}): TemplateInput {
  return {
    slug,
    title: `Weak TLS configuration ${slug}`,
    severity: 'medium',
    cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 3.7 },
    cwe: ['CWE-326'],
    description: 'The service accepts **outdated** protocol versions.',
    impact: 'Traffic may be decrypted by a network attacker.',
    remediation: 'Accept TLS 1.2 and later only.',
    references: ['https://owasp.org/www-project-web-security-testing-guide/'],
    tags: [],
    services: ['dast', 'network'],
    status: 'draft',
    ...overrides,
  }
}

/** Writes a template with the Admin SDK (no tags: tags need their counters and references). */
export async function writeTemplate(db: Firestore, template: TemplateInput): Promise<void> {
  await db.doc(templatePath(template.slug)).set({
    ...templateContentDocument(template),
    createdAt: Timestamp.now(),
    updatedAt: Timestamp.now(),
    updatedBy: 'senior@sectest.example',
  })
}

/** What the index should hold for the template as Firestore has it now; null when it has none. */
export async function expectedRecord(db: Firestore, slug: string): Promise<TemplateSearchRecord | null> {
  const snapshot = await db.doc(templatePath(slug)).get()
  if (!snapshot.exists) return null
  const stored = templateFromDocument(slug, snapshot.data())
  if (!stored.ok) throw new Error(`${slug} cannot be read`)
  return searchRecordFromTemplate(stored.template)
}

/** The records of these slugs; null where the index has none. */
export async function indexedRecords(slugs: readonly string[]): Promise<(Record<string, unknown> | null)[]> {
  const { results } = await searchAdmin().getObjects({ requests: slugs.map((objectID) => ({ indexName: TEMPLATES_INDEX, objectID })) })
  return results as (Record<string, unknown> | null)[]
}

const group = (entries: [string, string][]) => {
  const map: Record<string, string[]> = {}
  for (const [key, value] of entries) (map[key] ??= []).push(value)
  for (const values of Object.values(map)) values.sort()
  return map
}

/**
 * Every tagCount equals the references of its tag, and the references are exactly the templates'
 * tags: for the tags starting with `prefix` (files share the emulators, and the rules tests leave
 * skewed tags on purpose).
 */
export async function expectTagsConsistent(db: Firestore, prefix = ''): Promise<void> {
  const [counters, references, templates] = await Promise.all([
    db.collection(TAGS_COLLECTION).get(),
    db.collectionGroup('tags').get(),
    db.collection(TEMPLATES_COLLECTION).get(),
  ])
  const ours = ([tag]: [string, ...unknown[]]) => tag.startsWith(prefix)
  const referencesByTag = group(
    references.docs.map((reference): [string, string] => [reference.ref.parent.parent?.id ?? '', reference.id]).filter(ours),
  )
  const taggedByTag = group(
    templates.docs.flatMap((template) => storedTags(template.data()).map((tag): [string, string] => [tag, template.id])).filter(ours),
  )
  expect(referencesByTag).toEqual(taggedByTag)
  const counts = Object.fromEntries(counters.docs.map((counter): [string, unknown] => [counter.id, counter.get('tagCount')]).filter(ours))
  expect(counts).toEqual(Object.fromEntries(Object.keys(counts).map((tag) => [tag, referencesByTag[tag]?.length ?? 0])))
  // No reference without its counter.
  expect(Object.keys(referencesByTag).filter((tag) => !(tag in counts))).toEqual([])
}

/** The tag counters and references of some tags, for exact expectations. */
export async function tagState(db: Firestore, tags: readonly string[]): Promise<Record<string, { count: number | null; slugs: string[] }>> {
  const entries = await Promise.all(
    tags.map(async (tag) => {
      const [counter, references] = await Promise.all([
        db.doc(tagCounterPath(tag)).get(),
        db.collection(`${tagCounterPath(tag)}/tags`).get(),
      ])
      return [
        tag,
        { count: counter.exists ? (counter.get('tagCount') as number) : null, slugs: references.docs.map((d) => d.id).sort() },
      ] as const
    }),
  )
  return Object.fromEntries(entries)
}
