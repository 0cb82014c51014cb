// The browser's template writes (app/features/templates/template-writes.ts) through the Firestore
// web SDK as signed-in analysts, so firestore.rules judge every write; and two analysts changing
// tags at once, which must leave every tagCount equal to the references of its tag.
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app'
import { connectFirestoreEmulator, getFirestore, setLogLevel, type Firestore } from 'firebase/firestore'
import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { templatePath } from '#domain/template-library.ts'
import { userAccessPath } from '#domain/users-access.ts'
import { addTag, createTemplate, removeTag, saveTemplateField, TemplateWriteError } from '../../app/features/templates/template-writes.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'
import { connectToEmulators, disconnect, type AdminClients } from '../../emulators/firebase/admin.ts'
import { expectTagsConsistent, runId, tagState, templateInput, writeTemplate } from './template-fixtures.ts'
import { tokenClaims, usersAccessDocument } from '../builders.ts'

interface Editor {
  email: string
  db: Firestore
}

const apps: FirebaseApp[] = []
let admin: AdminClients
const run = runId()

/** A browser signed in as an analyst of `accessLevel`, talking to the Firestore emulator; the rules also read their users_access. */
async function browser(name: string, accessLevel: number): Promise<Editor> {
  const email = `${name}-${run}@sectest.example`
  await admin.db.doc(userAccessPath(`${name}-${run}`)).set(usersAccessDocument({ claims: tokenClaims(accessLevel) }))
  const app = initializeApp({ projectId: PROJECT_ID }, `template-writes-${name}-${run}`)
  apps.push(app)
  const db = getFirestore(app)
  connectFirestoreEmulator(db, EMULATOR_HOST, EMULATOR_PORTS.firestore, {
    mockUserToken: { sub: `${name}-${run}`, email, ...tokenClaims(accessLevel) },
  })
  return { email, db }
}

let ann: Editor
let bob: Editor
let junior: Editor

beforeAll(async () => {
  // Denials are expected in some cases: keep the SDK from logging each one.
  setLogLevel('silent')
  admin = connectToEmulators()
  ann = await browser('ann', 7)
  bob = await browser('bob', 9)
  junior = await browser('junior', 5)
})

afterAll(async () => {
  await Promise.all(apps.map((app) => deleteApp(app)))
  await disconnect(admin)
})

const tag = (name: string) => `${run}-${name}`

/** Runs the changes at once; each must succeed, whatever the others did meanwhile. */
async function atOnce(changes: Promise<void>[]): Promise<void> {
  const outcomes = await Promise.allSettled(changes)
  expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([])
}
const templateData = async (slug: string) => (await admin.db.doc(templatePath(slug)).get()).data()

describe('createTemplate', () => {
  it('creates the template untagged, then adds each tag as a change of its own', async () => {
    const slug = `${run}-created`
    await createTemplate(
      ann.db,
      { ...templateInput(slug), cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', tags: [tag('a'), tag('b')] },
      ann.email,
    )

    const data = await templateData(slug)
    expect(data).toMatchObject({
      title: templateInput(slug).title,
      cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 },
      tags: [tag('a'), tag('b')],
      updatedBy: ann.email,
    })
    expect(data?.createdAt).toBeInstanceOf(Timestamp)
    expect(data?.updatedAt).toBeInstanceOf(Timestamp)
    expect(data).not.toHaveProperty('slug')
    expect(await tagState(admin.db, [tag('a'), tag('b')])).toEqual({
      [tag('a')]: { count: 1, slugs: [slug] },
      [tag('b')]: { count: 1, slugs: [slug] },
    })
  })

  it('refuses a slug that is taken, and an invalid template', async () => {
    const slug = `${run}-taken`
    await createTemplate(ann.db, templateInput(slug), ann.email)
    await expect(createTemplate(bob.db, templateInput(slug, { title: 'Another' }), bob.email)).rejects.toThrow(TemplateWriteError)
    expect(await templateData(slug)).toMatchObject({ title: templateInput(slug).title, updatedBy: ann.email })
    await expect(createTemplate(ann.db, templateInput(`${run}-invalid`, { severity: 'severe' as 'high' }), ann.email)).rejects.toThrow(
      /severity: Choose a severity/,
    )
  })

  it('is not for analysts below level 7', async () => {
    await expect(createTemplate(junior.db, templateInput(`${run}-junior`), junior.email)).rejects.toMatchObject({
      code: 'permission-denied',
    })
  })
})

describe('saveTemplateField', () => {
  it('saves one field with the editor stamp; a CVSS vector as its version, vector and score', async () => {
    const slug = `${run}-fields`
    await writeTemplate(admin.db, templateInput(slug))
    const before = await templateData(slug)

    expect(await saveTemplateField(bob.db, slug, 'title', 'Outdated TLS protocols', bob.email)).toBe('Outdated TLS protocols')
    const vector = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N'
    expect(await saveTemplateField(bob.db, slug, 'cvss', vector, bob.email)).toEqual({ version: '4.0', vector, score: 9.3 })
    const saved = await templateData(slug)
    expect(saved).toMatchObject({ title: 'Outdated TLS protocols', cvss: { version: '4.0', vector, score: 9.3 }, updatedBy: bob.email })
    expect((saved?.updatedAt as Timestamp).toMillis()).toBeGreaterThan((before?.updatedAt as Timestamp).toMillis())
    expect(saved?.createdAt).toEqual(before?.createdAt)

    expect(await saveTemplateField(ann.db, slug, 'cvss', '', ann.email)).toBeNull()
    expect(await templateData(slug)).not.toHaveProperty('cvss')
  })

  it('refuses a value its schema refuses, and saves nothing', async () => {
    const slug = `${run}-refused`
    await writeTemplate(admin.db, templateInput(slug))
    await expect(saveTemplateField(ann.db, slug, 'cwe', ['XSS'], ann.email)).rejects.toThrow(/^cwe: "XSS" is not a CWE id/)
    await expect(saveTemplateField(ann.db, slug, 'cvss', 'CVSS:3.1/AV:N', ann.email)).rejects.toThrow(TemplateWriteError)
    expect((await templateData(slug))?.cwe).toEqual(['CWE-326'])
  })
})

describe('addTag and removeTag', () => {
  it('do nothing when the template already has, or lacks, the tag', async () => {
    const slug = `${run}-noop`
    await writeTemplate(admin.db, templateInput(slug))
    await addTag(ann.db, slug, tag('n'), ann.email)
    const tagged = await templateData(slug)
    await addTag(bob.db, slug, tag('n'), bob.email)
    await removeTag(bob.db, slug, tag('absent'), bob.email)
    expect(await templateData(slug)).toEqual(tagged)
    expect(await tagState(admin.db, [tag('n'), tag('absent')])).toEqual({
      [tag('n')]: { count: 1, slugs: [slug] },
      [tag('absent')]: { count: null, slugs: [] },
    })
  })

  it('normalise the tag, and refuse one that is not a tag', async () => {
    const slug = `${run}-normalised`
    await writeTemplate(admin.db, templateInput(slug))
    await addTag(ann.db, slug, `  ${tag('Upper').toUpperCase()} `, ann.email)
    expect((await templateData(slug))?.tags).toEqual([tag('upper')])
    await expect(addTag(ann.db, slug, 'SQL injection!', ann.email)).rejects.toThrow(/is not a tag/)
  })

  it('leave every count equal to its references when two analysts change tags at once', async () => {
    const [first, second] = [`${run}-first`, `${run}-second`]
    await Promise.all([writeTemplate(admin.db, templateInput(first)), writeTemplate(admin.db, templateInput(second))])
    const [x, y, z, w] = [tag('x'), tag('y'), tag('z'), tag('w')]

    // The same tag on the same template from both, other tags on it, the same tag on another.
    await atOnce([
      addTag(ann.db, first, x, ann.email),
      addTag(bob.db, first, x, bob.email),
      addTag(ann.db, first, y, ann.email),
      addTag(bob.db, first, z, bob.email),
      addTag(ann.db, second, x, ann.email),
      addTag(bob.db, second, x, bob.email),
    ])
    expect((await templateData(first))?.tags.toSorted()).toEqual([x, y, z].toSorted())
    expect(await tagState(admin.db, [x, y, z])).toEqual({
      [x]: { count: 2, slugs: [first, second].toSorted() },
      [y]: { count: 1, slugs: [first] },
      [z]: { count: 1, slugs: [first] },
    })

    // Both remove the same tag, one adds another meanwhile, and the other template loses its tag.
    await atOnce([
      removeTag(ann.db, first, x, ann.email),
      removeTag(bob.db, first, x, bob.email),
      addTag(bob.db, first, w, bob.email),
      removeTag(ann.db, second, x, ann.email),
      addTag(bob.db, second, y, bob.email),
    ])
    expect((await templateData(first))?.tags.toSorted()).toEqual([y, z, w].toSorted())
    expect((await templateData(second))?.tags).toEqual([y])
    expect(await tagState(admin.db, [x, y, z, w])).toEqual({
      [x]: { count: 0, slugs: [] },
      [y]: { count: 2, slugs: [first, second].toSorted() },
      [z]: { count: 1, slugs: [first] },
      [w]: { count: 1, slugs: [first] },
    })
    await expectTagsConsistent(admin.db, run)
  })
})
