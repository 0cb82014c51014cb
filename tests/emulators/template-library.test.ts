// deleteFindingTemplate and importFindingTemplates, called the way the browser calls them: who may,
// what they refuse, and that tag counters, references and templates agree afterwards.
import { signOut } from 'firebase/auth'
import { httpsCallable } from 'firebase/functions'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LEVEL } from '#domain/access.ts'
import type { TemplateInput } from '#domain/finding-template.ts'
import { templatePath } from '#domain/template-library.ts'
import { TEMPLATE_IMPORT_MAX_BYTES, type DeleteTemplateResponse, type ImportTemplatesResponse } from '#domain/template-library-calls.ts'
import { exportTemplatesJson } from '#domain/template-transfer.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { connectCallableClient, expectCallableError, signInWithClaims, type CallableClient } from './callable-client.ts'
import { eventually, expectTagsConsistent, INDEX_TIMEOUT_MS, indexedRecords, runId, tagState, templateInput } from './template-fixtures.ts'
import { tokenClaims } from '../builders.ts'

let admin: AdminClients
let client: CallableClient
let senior: { uid: string; email: string }
const run = runId()

const call = async <T>(name: string, data: unknown) => (await httpsCallable<unknown, T>(client.functions, name)(data)).data
const importTemplates = (data: unknown) => call<ImportTemplatesResponse>('importFindingTemplates', data)
const deleteTemplate = (data: unknown) => call<DeleteTemplateResponse>('deleteFindingTemplate', data)

const tag = (name: string) => `${run}-${name}`
const slug = (name: string) => `${run}-${name}`

/** A JSON export of these templates, as the app downloads it. */
const jsonFile = (templates: TemplateInput[]) =>
  exportTemplatesJson(templates.map((template) => ({ ...template, createdAt: 0, updatedAt: 0, updatedBy: 'someone@elsewhere.example' })))

const csvCell = (text: string) => `"${text.replaceAll('"', '""')}"`

async function signInSenior() {
  senior = await signInWithClaims(client, admin.auth, tokenClaims(LEVEL.seniorAnalyst))
}

beforeAll(async () => {
  admin = connectToEmulators()
  client = connectCallableClient('template-library')
})

beforeEach(async () => {
  await signOut(client.auth)
})

afterAll(async () => {
  await client.close()
  await disconnect(admin)
})

describe('importFindingTemplates', () => {
  it('creates and updates templates with server stamps, and moves tag counts with their references', async () => {
    await signInSenior()
    const created = await importTemplates({
      fileName: 'library.json',
      text: jsonFile([
        templateInput(slug('tls'), { tags: [tag('crypto'), tag('network')] }),
        templateInput(slug('ssh'), { tags: [tag('network')] }),
        templateInput(slug('smb'), { tags: [] }),
      ]),
    })
    expect(created).toEqual({
      success: true,
      rows: [
        { row: 1, slug: slug('tls'), outcome: 'created' },
        { row: 2, slug: slug('ssh'), outcome: 'created' },
        { row: 3, slug: slug('smb'), outcome: 'created' },
      ],
    })
    const tls = (await admin.db.doc(templatePath(slug('tls'))).get()).data()
    expect(tls).toMatchObject({ title: templateInput(slug('tls')).title, updatedBy: senior.email, tags: [tag('crypto'), tag('network')] })
    expect(tls?.createdAt).toBeInstanceOf(Timestamp)
    expect(tls?.updatedAt).toBeInstanceOf(Timestamp)
    expect(await tagState(admin.db, [tag('crypto'), tag('network')])).toEqual({
      [tag('crypto')]: { count: 1, slugs: [slug('tls')] },
      [tag('network')]: { count: 2, slugs: [slug('ssh'), slug('tls')].toSorted() },
    })

    // A CSV changing some columns: tags of one template, the status of another; a row with
    // nothing new, one with a bad severity and one repeating a slug.
    const csv = [
      ['slug', 'tags', 'status', 'severity'],
      [slug('tls'), `${tag('crypto')}\n${tag('legacy')}`, 'ready', 'medium'],
      [slug('ssh'), tag('network'), 'draft', 'medium'],
      [slug('smb'), tag('network'), 'deprecated', 'severe'],
      [slug('tls'), '', 'draft', 'low'],
    ]
      .map((cells) => cells.map(csvCell).join(','))
      .join('\r\n')
    const updated = await importTemplates({ fileName: 'changes.csv', text: csv })
    expect(updated.rows).toEqual([
      { row: 2, slug: slug('tls'), outcome: 'updated' },
      { row: 3, slug: slug('ssh'), outcome: 'unchanged' },
      { row: 4, slug: slug('smb'), outcome: 'refused', reason: expect.stringMatching(/^severity: Choose a severity/) },
      { row: 5, slug: slug('tls'), outcome: 'refused', reason: 'Row 2 of this file has the same slug' },
    ])
    const after = (await admin.db.doc(templatePath(slug('tls'))).get()).data()
    expect(after).toMatchObject({ status: 'ready', tags: [tag('crypto'), tag('legacy')], createdAt: tls?.createdAt })
    expect((after?.updatedAt as Timestamp).toMillis()).toBeGreaterThan((tls?.updatedAt as Timestamp).toMillis())
    expect(await tagState(admin.db, [tag('crypto'), tag('network'), tag('legacy')])).toEqual({
      [tag('crypto')]: { count: 1, slugs: [slug('tls')] },
      [tag('network')]: { count: 1, slugs: [slug('ssh')] },
      [tag('legacy')]: { count: 1, slugs: [slug('tls')] },
    })
    await expectTagsConsistent(admin.db, run)
  })

  it('refuses a file it cannot read, with the reason', async () => {
    await signInSenior()
    await expectCallableError(
      importTemplates({ fileName: 'notes.json', text: '{"hello": 1}' }),
      'invalid-argument',
      'The file is not an export of finding templates (format "bulwark.finding-templates")',
    )
  })

  it.each([
    ['no text', { fileName: 'library.json' }],
    ['text that is not text', { fileName: 'library.json', text: 42 }],
    ['a file over the limit', { fileName: 'library.csv', text: `slug\r\n${'a'.repeat(TEMPLATE_IMPORT_MAX_BYTES)}` }],
    ['an extra field', { fileName: 'library.csv', text: 'slug\r\nx', overwrite: true }],
  ])('refuses %s', async (_what, payload) => {
    await signInSenior()
    await expectCallableError(importTemplates(payload), 'invalid-argument')
  })

  it('is for level 7 and above only', async () => {
    const file = { fileName: 'library.json', text: jsonFile([templateInput(slug('refused'))]) }
    await expectCallableError(importTemplates(file), 'unauthenticated')
    await signInWithClaims(client, admin.auth, tokenClaims(LEVEL.analyst))
    await expectCallableError(importTemplates(file), 'permission-denied')
    expect((await admin.db.doc(templatePath(slug('refused'))).get()).exists).toBe(false)
  })
})

describe('deleteFindingTemplate', () => {
  it(
    'refuses while findings use the template, then deletes it with its references and counts',
    async () => {
      await signInSenior()
      await importTemplates({
        fileName: 'library.json',
        text: jsonFile([
          templateInput(slug('used'), { tags: [tag('web'), tag('owasp')] }),
          templateInput(slug('kept'), { tags: [tag('web')] }),
        ]),
      })
      const findings = ['acme', 'globex'].map((company) => admin.db.doc(`companies/${company}/findings/${slug('finding')}`))
      await Promise.all(findings.map((finding) => finding.set({ service: 'dast', templateSlug: slug('used'), title: 'Used' })))

      // A check counts them before anyone presses Delete, and deletes nothing.
      expect(await deleteTemplate({ slug: slug('used'), check: true })).toEqual({ success: true, findings: 2 })
      expect(await deleteTemplate({ slug: slug('kept'), check: true })).toEqual({ success: true, findings: 0 })
      expect((await admin.db.doc(templatePath(slug('kept'))).get()).exists).toBe(true)
      await expectCallableError(
        deleteTemplate({ slug: slug('used') }),
        'failed-precondition',
        '2 findings use this template: it can be deleted once no finding does.',
      )
      await findings[0]?.delete()
      await expectCallableError(
        deleteTemplate({ slug: slug('used') }),
        'failed-precondition',
        '1 finding uses this template: it can be deleted once no finding does.',
      )
      expect((await admin.db.doc(templatePath(slug('used'))).get()).exists).toBe(true)

      await findings[1]?.delete()
      expect(await deleteTemplate({ slug: slug('used') })).toEqual({ success: true })
      expect((await admin.db.doc(templatePath(slug('used'))).get()).exists).toBe(false)
      expect(await tagState(admin.db, [tag('web'), tag('owasp')])).toEqual({
        [tag('web')]: { count: 1, slugs: [slug('kept')] },
        [tag('owasp')]: { count: 0, slugs: [] },
      })
      await expectTagsConsistent(admin.db, run)
      await eventually(async () => expect(await indexedRecords([slug('used')])).toEqual([null]))
    },
    INDEX_TIMEOUT_MS + 10_000,
  )

  it('says when there is no such template, and refuses what is not a slug', async () => {
    await signInSenior()
    await expectCallableError(deleteTemplate({ slug: slug('missing') }), 'not-found')
    await expectCallableError(deleteTemplate({ slug: 'Not a slug' }), 'invalid-argument')
    await expectCallableError(deleteTemplate({}), 'invalid-argument')
  })

  it('is for level 7 and above only', async () => {
    await signInSenior()
    await importTemplates({ fileName: 'library.json', text: jsonFile([templateInput(slug('protected'))]) })
    await signOut(client.auth)
    await expectCallableError(deleteTemplate({ slug: slug('protected') }), 'unauthenticated')
    await signInWithClaims(client, admin.auth, tokenClaims(LEVEL.analyst))
    await expectCallableError(deleteTemplate({ slug: slug('protected') }), 'permission-denied')
    expect((await admin.db.doc(templatePath(slug('protected'))).get()).exists).toBe(true)
  })
})
