// Finding templates and their tags, platform services, agents and locations, against
// app/domain/access.ts; tag changes as the one batch the app writes, and every way to skew one.
import {
  arrayRemove,
  arrayUnion,
  collection,
  deleteDoc,
  doc,
  getDoc,
  getDocs,
  increment,
  setDoc,
  updateDoc,
  writeBatch,
} from 'firebase/firestore/lite'
import { isDeepStrictEqual } from 'node:util'
import * as v from 'valibot'
import { describe } from 'vitest'
import { pageRules } from '#domain/access.ts'
import { TEMPLATE_LIMITS, templateFieldSchemas, type TemplateField } from '#domain/finding-template.ts'
import { TemplateSlugSchema } from '#domain/template-library-calls.ts'
import {
  at,
  demo,
  fresh,
  principals,
  ruleCase,
  rulesSuite,
  stamp,
  usable,
  type Db,
  type Principal,
  type RuleCase,
} from './rules-harness.ts'

const suite = rulesSuite('library')
suite.seedPrincipals(principals)

const page = (path: string, p: Principal) => pageRules[path]?.({ access: p.access, company: null }) ?? false
const senior = demo[7]

function templateDoc(p: Principal, tags: string[] = []) {
  return {
    title: 'Weak TLS configuration',
    severity: 'medium',
    cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N', score: 3.7 },
    cwe: ['CWE-326'],
    description: 'The service accepts outdated protocol versions.',
    impact: 'Traffic may be decrypted by a network attacker.',
    remediation: 'Accept TLS 1.2 and later only.',
    references: ['https://owasp.org/www-project-web-security-testing-guide/'],
    tags,
    services: ['dast', 'network'],
    status: 'draft',
    createdAt: at('2025-09-01T12:00:00Z'),
    updatedAt: at('2025-09-01T12:00:00Z'),
    updatedBy: p.email,
  }
}

/** A template saved now by `p`. */
const newTemplate = (p: Principal, tags: string[] = []) => ({ ...templateDoc(p, tags), ...stamp(p), createdAt: stamp(p).updatedAt })

// One template tagged `tls`, its reference and its counter, for reading.
suite.seed('finding_templates/weak-tls', templateDoc(senior, ['tls']))
suite.seed('finding_tags/tls', { tagCount: 1, lastSlug: 'weak-tls' })
suite.seed('finding_tags/tls/tags/weak-tls', { slug: 'weak-tls' })

function templateCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    const allowed = page('/templates', p)
    cases.push(ruleCase(p, 'gets a finding template', allowed, (db) => getDoc(doc(db, 'finding_templates/weak-tls'))))
    cases.push(ruleCase(p, 'lists finding templates', allowed, (db) => getDocs(collection(db, 'finding_templates'))))
    cases.push(
      ruleCase(p, 'creates a finding template', allowed, (db) => setDoc(doc(db, `finding_templates/${fresh('tpl')}`), newTemplate(p))),
    )
    const updated = fresh('tpl-upd')
    suite.seed(`finding_templates/${updated}`, templateDoc(senior))
    cases.push(
      ruleCase(p, 'marks a finding template ready', allowed, (db) =>
        updateDoc(doc(db, `finding_templates/${updated}`), { status: 'ready', ...stamp(p) }),
      ),
    )
    const deleted = fresh('tpl-del')
    suite.seed(`finding_templates/${deleted}`, templateDoc(senior))
    cases.push(ruleCase(p, 'deletes a finding template', allowed, (db) => deleteDoc(doc(db, `finding_templates/${deleted}`))))
    // Tagged ones go through deleteFindingTemplate, which removes their references and counts too.
    const tagged = fresh('tpl-tagged-del')
    suite.seed(`finding_templates/${tagged}`, templateDoc(senior, ['tls']))
    cases.push(ruleCase(p, 'deletes a tagged finding template', false, (db) => deleteDoc(doc(db, `finding_templates/${tagged}`))))
  }

  const creates: [string, Record<string, unknown>, boolean][] = [
    ['without a CVSS', { cvss: undefined }, true],
    ['the status "published"', { status: 'published' }, false],
    ['the severity "severe"', { severity: 'severe' }, false],
    ['the service "email"', { services: ['dast', 'email'] }, false],
    ['a title of 301 characters', { title: 'x'.repeat(301) }, false],
    ['CWE ids that are not a list', { cwe: 'CWE-326' }, false],
    ['no remediation', { remediation: undefined }, false],
    ['an extra key', { author: 'mallory' }, false],
    ["someone else's updatedBy", { updatedBy: 'platform@sectest.example' }, false],
    ['an updatedAt that is not the request time', { updatedAt: at('2025-01-01T00:00:00Z') }, false],
    ['a createdAt that is not the request time', { createdAt: at('2025-01-01T00:00:00Z') }, false],
    // Tags arrive one batch at a time, with their references.
    ['a tag but no reference', { tags: ['xss'] }, false],
  ]
  for (const [what, change, allowed] of creates) {
    const data = Object.fromEntries(Object.entries({ ...newTemplate(senior), ...change }).filter(([, v]) => v !== undefined))
    cases.push(
      ruleCase(senior, `creates a finding template with ${what}`, allowed, (db) =>
        setDoc(doc(db, `finding_templates/${fresh('tpl-forged')}`), data),
      ),
    )
  }
  const updates: [string, Record<string, unknown>, boolean][] = [
    ['a new title', { title: 'Outdated TLS', ...stamp(senior) }, true],
    ['the status "published"', { status: 'published', ...stamp(senior) }, false],
    ['a new createdAt', { createdAt: at('2025-01-01T00:00:00Z'), ...stamp(senior) }, false],
    ['no new stamp', { title: 'Outdated TLS' }, false],
    ['a tag but no reference', { tags: arrayUnion('sqli'), ...stamp(senior) }, false],
  ]
  for (const [what, change, allowed] of updates) {
    const slug = fresh('tpl-forged-upd')
    suite.seed(`finding_templates/${slug}`, templateDoc(senior))
    cases.push(
      ruleCase(senior, `updates a finding template with ${what}`, allowed, (db) => updateDoc(doc(db, `finding_templates/${slug}`), change)),
    )
  }
  return cases
}

// ---- The template schema's bounds, which the rules mirror -------------------------------------

/** Whether the app stores `value` as given: the schema accepts it and leaves it unchanged (trimmed, lowercased, deduplicated). */
function stores(schema: v.GenericSchema, value: unknown): boolean {
  const parsed = v.safeParse(schema, value)
  return parsed.success && isDeepStrictEqual(parsed.output, value)
}

const L = TEMPLATE_LIMITS
const address = (length: number) => `https://docs.example/${'p'.repeat(length - 'https://docs.example/'.length)}`
const listOf = (count: number, item: (i: number) => string) => Array.from({ length: count }, (_, i) => item(i))
const markdownValues = ['', 'x'.repeat(L.markdownLength), 'x'.repeat(L.markdownLength + 1), 7, null]

/** Values at, over and beside each bound of each field (tags, which change one at a time, are below). */
const fieldValues: Record<Exclude<TemplateField, 'tags'>, unknown[]> = {
  title: ['x'.repeat(L.titleLength), 'x'.repeat(L.titleLength + 1), '', '   ', ' padded ', 'two\nlines', 'one\rline', 42],
  severity: ['critical', 'info', 'severe', 3],
  cvss: [
    { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 },
    { version: '4.0', vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', score: 9.3 },
    { version: '3.0', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 },
    { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' },
    { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 11 },
    { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8, note: 'x' },
    { version: '3.1', vector: 'not a vector', score: 0 },
    'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  ],
  cwe: [
    [],
    ['CWE-79'],
    ['CWE-0'],
    ['cwe-79'],
    ['CWE-79', 'CWE-79'],
    ['CWE-12345678'],
    listOf(L.cweCount, (i) => `CWE-${i + 1}`),
    listOf(L.cweCount + 1, (i) => `CWE-${i + 1}`),
    [79],
    'CWE-79',
  ],
  description: markdownValues,
  impact: markdownValues,
  remediation: markdownValues,
  references: [
    [],
    [address(L.referenceLength)],
    [address(L.referenceLength + 1)],
    ['http://a.example'],
    ['HTTPS://A.EXAMPLE/Path'],
    ['ftp://a.example/x'],
    ['https://'],
    ['https://a.example/a b'],
    [' https://a.example/'],
    ['not a web address'],
    ['https://a.example/', 'https://a.example/'],
    listOf(L.referenceCount, (i) => `https://a.example/${i}`),
    listOf(L.referenceCount + 1, (i) => `https://a.example/${i}`),
    [42],
  ],
  services: [[], ['dast', 'cloud'], ['dast', 'dast'], ['email'], 'dast'],
  status: ['draft', 'ready', 'deprecated', 'published'],
}

const slugValues = [
  'x'.repeat(L.slugLength),
  'y'.repeat(L.slugLength + 1),
  'Upper-case',
  'two--hyphens',
  'trailing-',
  'under_score',
  'a1-b2',
]
const tagValues = ['t'.repeat(L.tagLength), 'u'.repeat(L.tagLength + 1), 'SQL', 'sql injection', 'sql--injection', 'sql-injection-2']

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} characters)` : text
}

function schemaCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const [field, values] of Object.entries(fieldValues) as [Exclude<TemplateField, 'tags'>, unknown[]][]) {
    for (const value of values) {
      const data = { ...newTemplate(senior), [field]: value }
      cases.push(
        ruleCase(senior, `creates a template whose ${field} is ${shown(value)}`, stores(templateFieldSchemas[field], value), (db) =>
          setDoc(doc(db, `finding_templates/${fresh('tpl-schema')}`), data),
        ),
      )
    }
  }
  for (const slug of slugValues) {
    cases.push(
      ruleCase(senior, `creates a template with the slug ${shown(slug)}`, stores(TemplateSlugSchema, slug), (db) =>
        setDoc(doc(db, `finding_templates/${slug}`), newTemplate(senior)),
      ),
    )
  }
  // A tag arrives with its counter and reference, one at a time; the list's length is bounded too.
  const tagBatch = (slug: string, tag: string) => (db: Db) => {
    const batch = writeBatch(db)
    batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayUnion(tag), ...stamp(senior) })
    batch.set(doc(db, `finding_tags/${tag}`), { tagCount: 1, lastSlug: slug })
    batch.set(doc(db, `finding_tags/${tag}/tags/${slug}`), { slug })
    return batch.commit()
  }
  for (const tag of tagValues) {
    const slug = fresh('tpl-tag-schema')
    suite.seed(`finding_templates/${slug}`, templateDoc(senior))
    cases.push(ruleCase(senior, `tags a template with ${shown(tag)}`, stores(templateFieldSchemas.tags, [tag]), tagBatch(slug, tag)))
  }
  for (const count of [L.tagCount - 1, L.tagCount]) {
    const slug = fresh('tpl-many-tags')
    const before = listOf(count, (i) => `many-${i}`)
    suite.seed(`finding_templates/${slug}`, templateDoc(senior, before))
    const tag = fresh('one-more')
    cases.push(
      ruleCase(
        senior,
        `adds a tag to a template with ${count} tags`,
        stores(templateFieldSchemas.tags, [...before, tag]),
        tagBatch(slug, tag),
      ),
    )
  }
  return cases
}

interface TagSetup {
  /** Whether the template carries the tag before. */
  onTemplate: boolean
  /** The counter before; null: none. */
  count: number | null
  /** Whether the reference exists before. */
  reference: boolean
}

/** A template and a tag of their own, in the given state; returns their names. */
function tagFixture(setup: TagSetup): { slug: string; tag: string } {
  const slug = fresh('tagged')
  const tag = fresh('tag')
  suite.seed(`finding_templates/${slug}`, templateDoc(senior, setup.onTemplate ? [tag] : []))
  if (setup.count !== null) suite.seed(`finding_tags/${tag}`, { tagCount: setup.count, lastSlug: 'someone-else' })
  if (setup.reference) suite.seed(`finding_tags/${tag}/tags/${slug}`, { slug })
  return { slug, tag }
}

type Step = (batch: ReturnType<typeof writeBatch>, db: Db, names: { slug: string; tag: string }, p: Principal) => void

const template: Record<'tag' | 'untag', Step> = {
  tag: (batch, db, { slug, tag }, p) => batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayUnion(tag), ...stamp(p) }),
  untag: (batch, db, { slug, tag }, p) => batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayRemove(tag), ...stamp(p) }),
}
const counter = {
  start: ((batch, db, { slug, tag }) => batch.set(doc(db, `finding_tags/${tag}`), { tagCount: 1, lastSlug: slug })) as Step,
  by:
    (n: number): Step =>
    (batch, db, { slug, tag }) =>
      batch.update(doc(db, `finding_tags/${tag}`), { tagCount: increment(n), lastSlug: slug }),
}
const reference = {
  add: ((batch, db, { slug, tag }) => batch.set(doc(db, `finding_tags/${tag}/tags/${slug}`), { slug })) as Step,
  remove: ((batch, db, { slug, tag }) => batch.delete(doc(db, `finding_tags/${tag}/tags/${slug}`))) as Step,
}

function batchCase(p: Principal, what: string, allowed: boolean, setup: TagSetup, steps: Step[]): RuleCase {
  const names = tagFixture(setup)
  return ruleCase(p, what, allowed, (db) => {
    const batch = writeBatch(db)
    for (const step of steps) step(batch, db, names, p)
    return batch.commit()
  })
}

// A tag nobody uses yet, one in use elsewhere, and one this template uses too.
const newTag: TagSetup = { onTemplate: false, count: null, reference: false }
const untagged: TagSetup = { onTemplate: false, count: 3, reference: false }
const tagged: TagSetup = { onTemplate: true, count: 3, reference: true }

function tagCases(): RuleCase[] {
  const cases: RuleCase[] = []
  for (const p of principals) {
    const allowed = page('/templates', p)
    cases.push(ruleCase(p, 'gets a tag', allowed, (db) => getDoc(doc(db, 'finding_tags/tls'))))
    cases.push(ruleCase(p, 'lists tags', allowed, (db) => getDocs(collection(db, 'finding_tags'))))
    cases.push(ruleCase(p, 'gets a tag reference', allowed, (db) => getDoc(doc(db, 'finding_tags/tls/tags/weak-tls'))))
    cases.push(ruleCase(p, 'lists the references of a tag', allowed, (db) => getDocs(collection(db, 'finding_tags/tls/tags'))))
    cases.push(batchCase(p, 'tags a template with a new tag', allowed, newTag, [template.tag, counter.start, reference.add]))
    cases.push(batchCase(p, 'tags a template with a tag in use', allowed, untagged, [template.tag, counter.by(1), reference.add]))
    cases.push(batchCase(p, 'untags a template', allowed, tagged, [template.untag, counter.by(-1), reference.remove]))
    const unused = fresh('unused')
    suite.seed(`finding_tags/${unused}`, { tagCount: 0, lastSlug: 'gone' })
    cases.push(ruleCase(p, 'deletes an unused tag', allowed, (db) => deleteDoc(doc(db, `finding_tags/${unused}`))))
  }

  // Every way to make the count, the references and the templates disagree, by a senior analyst.
  const forged: [string, TagSetup, Step[]][] = [
    ['moves tagCount by 2 with one reference', untagged, [template.tag, counter.by(2), reference.add]],
    ['moves tagCount by 1 without the reference', untagged, [template.tag, counter.by(1)]],
    ['adds a reference without moving tagCount', untagged, [template.tag, reference.add]],
    ['moves tagCount alone', untagged, [counter.by(1)]],
    ['adds a reference alone', untagged, [reference.add]],
    ['moves tagCount by -2 with one reference gone', tagged, [template.untag, counter.by(-2), reference.remove]],
    ['removes a reference without moving tagCount', tagged, [template.untag, reference.remove]],
    ['moves tagCount by -1 and keeps the reference', tagged, [template.untag, counter.by(-1)]],
    ['adds a reference while the template keeps its tags', untagged, [counter.by(1), reference.add]],
    ['removes a reference while the template keeps the tag', tagged, [counter.by(-1), reference.remove]],
    ['tags a template without touching the tag', untagged, [template.tag]],
    ['starts a tag at 1 without a reference', newTag, [template.tag, counter.start]],
    ['starts a tag alone', newTag, [counter.start]],
    ['removes a reference alone', tagged, [reference.remove]],
    ['moves tagCount by -1 alone', tagged, [counter.by(-1)]],
  ]
  for (const [what, setup, steps] of forged) cases.push(batchCase(senior, what, false, setup, steps))

  type Names = { slug: string; tag: string }
  const direct: [string, (db: Db, first: Names, second: Names) => Promise<unknown>][] = [
    [
      'starts a tag at 2',
      (db, { slug, tag }) => {
        const batch = writeBatch(db)
        batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayUnion(tag), ...stamp(senior) })
        batch.set(doc(db, `finding_tags/${tag}`), { tagCount: 2, lastSlug: slug })
        batch.set(doc(db, `finding_tags/${tag}/tags/${slug}`), { slug })
        return batch.commit()
      },
    ],
    [
      'names another template in lastSlug',
      (db, { slug, tag }) => {
        const batch = writeBatch(db)
        batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayUnion(tag), ...stamp(senior) })
        batch.update(doc(db, `finding_tags/${tag}`), { tagCount: increment(1), lastSlug: 'weak-tls' })
        batch.set(doc(db, `finding_tags/${tag}/tags/${slug}`), { slug })
        return batch.commit()
      },
    ],
    [
      'adds a counter key',
      (db, { slug, tag }) => {
        const batch = writeBatch(db)
        batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayUnion(tag), ...stamp(senior) })
        batch.update(doc(db, `finding_tags/${tag}`), { tagCount: increment(1), lastSlug: slug, owner: 'mallory' })
        batch.set(doc(db, `finding_tags/${tag}/tags/${slug}`), { slug })
        return batch.commit()
      },
    ],
    [
      'writes a reference naming another slug',
      (db, { slug, tag }) => {
        const batch = writeBatch(db)
        batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayUnion(tag), ...stamp(senior) })
        batch.update(doc(db, `finding_tags/${tag}`), { tagCount: increment(1), lastSlug: slug })
        batch.set(doc(db, `finding_tags/${tag}/tags/${slug}`), { slug: 'weak-tls' })
        return batch.commit()
      },
    ],
    [
      'adds two references with tagCount +1',
      (db, { slug, tag }) => {
        const batch = writeBatch(db)
        batch.update(doc(db, `finding_templates/${slug}`), { tags: arrayUnion(tag), ...stamp(senior) })
        batch.update(doc(db, `finding_tags/${tag}`), { tagCount: increment(1), lastSlug: slug })
        batch.set(doc(db, `finding_tags/${tag}/tags/${slug}`), { slug })
        batch.set(doc(db, `finding_tags/${tag}/tags/weak-tls`), { slug: 'weak-tls' })
        return batch.commit()
      },
    ],
    [
      'tags a template with two tags at once',
      (db, first, second) => {
        const batch = writeBatch(db)
        batch.update(doc(db, `finding_templates/${first.slug}`), { tags: arrayUnion(first.tag, second.tag), ...stamp(senior) })
        for (const tag of [first.tag, second.tag]) {
          batch.update(doc(db, `finding_tags/${tag}`), { tagCount: increment(1), lastSlug: first.slug })
          batch.set(doc(db, `finding_tags/${tag}/tags/${first.slug}`), { slug: first.slug })
        }
        return batch.commit()
      },
    ],
    ['deletes a tag in use', (db) => deleteDoc(doc(db, 'finding_tags/tls'))],
    ['sets tagCount directly', (db) => updateDoc(doc(db, 'finding_tags/tls'), { tagCount: 7 })],
  ]
  for (const [what, run] of direct) {
    // Fixtures are made now, so they are seeded before the cases run.
    const first = tagFixture(what === 'starts a tag at 2' ? newTag : untagged)
    const second = tagFixture(untagged)
    cases.push(ruleCase(senior, what, false, (db) => run(db, first, second)))
  }
  return cases
}

// The service catalogue is written by saveService only (with its audit event); everyone signed in reads it.
function serviceCases(): RuleCase[] {
  const cases: RuleCase[] = []
  suite.seed('services/dast', {
    label: 'DAST',
    description: 'Dynamic testing',
    defaultEnabled: true,
    sla: { critical: 7, high: 30, medium: 90, low: 180, info: null },
    updatedAt: at('2025-09-01T12:00:00Z'),
    updatedBy: 'platform@sectest.example',
  })
  const serviceDoc = (p: Principal) => ({ label: 'Service', description: '', defaultEnabled: true, ...stamp(p) })
  for (const p of principals) {
    cases.push(ruleCase(p, 'gets a platform service', usable(p), (db) => getDoc(doc(db, 'services/dast'))))
    cases.push(ruleCase(p, 'lists platform services', usable(p), (db) => getDocs(collection(db, 'services'))))
    cases.push(ruleCase(p, 'creates a platform service', false, (db) => setDoc(doc(db, `services/${fresh('svc')}`), serviceDoc(p))))
    cases.push(
      ruleCase(p, 'changes a platform service', false, (db) => updateDoc(doc(db, 'services/dast'), { defaultEnabled: false, ...stamp(p) })),
    )
    cases.push(ruleCase(p, 'deletes a platform service', false, (db) => deleteDoc(doc(db, 'services/dast'))))
  }
  return cases
}

// The fleet is written by the functions only (decision 0021): senior analysts read, nobody writes.
function namedCases(kind: 'agents' | 'locations'): RuleCase[] {
  const cases: RuleCase[] = []
  const path = kind === 'agents' ? '/analyst/agents' : '/analyst/locations'
  const record = (p: Principal) => ({ name: `${kind} one`, region: 'eu-west', ...stamp(p) })
  suite.seed(`${kind}/one`, { name: `${kind} one`, updatedAt: at('2025-09-01T12:00:00Z'), updatedBy: 'senior@sectest.example' })
  for (const p of principals) {
    const allowed = page(path, p)
    cases.push(ruleCase(p, `gets one of the ${kind}`, allowed, (db) => getDoc(doc(db, `${kind}/one`))))
    cases.push(ruleCase(p, `lists ${kind}`, allowed, (db) => getDocs(collection(db, kind))))
    cases.push(ruleCase(p, `creates one of the ${kind}`, false, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}`), record(p))))
    const updated = fresh(`${kind}-upd`)
    suite.seed(`${kind}/${updated}`, record(senior))
    cases.push(
      ruleCase(p, `renames one of the ${kind}`, false, (db) => updateDoc(doc(db, `${kind}/${updated}`), { name: 'Renamed', ...stamp(p) })),
    )
    const deleted = fresh(`${kind}-del`)
    suite.seed(`${kind}/${deleted}`, record(senior))
    cases.push(ruleCase(p, `deletes one of the ${kind}`, false, (db) => deleteDoc(doc(db, `${kind}/${deleted}`))))
  }
  const forged: [string, Record<string, unknown>][] = [
    ['no name', { name: undefined }],
    ['an empty name', { name: '' }],
    ["someone else's updatedBy", { updatedBy: 'platform@sectest.example' }],
    ['an updatedAt that is not the request time', { updatedAt: at('2025-01-01T00:00:00Z') }],
  ]
  for (const [what, change] of forged) {
    const data = Object.fromEntries(Object.entries({ ...record(senior), ...change }).filter(([, v]) => v !== undefined))
    cases.push(ruleCase(senior, `creates one of the ${kind} with ${what}`, false, (db) => setDoc(doc(db, `${kind}/${fresh(kind)}`), data)))
  }
  return cases
}

describe('firestore.rules: finding_templates', () => suite.run(templateCases()))
describe('firestore.rules: finding_tags', () => suite.run(tagCases()))
describe('firestore.rules: finding templates within the schema', () => suite.run(schemaCases()))
describe('firestore.rules: services', () => suite.run(serviceCases()))
describe('firestore.rules: agents', () => suite.run(namedCases('agents')))
describe('firestore.rules: locations', () => suite.run(namedCases('locations')))
