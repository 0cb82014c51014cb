import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  assertFails,
  assertSucceeds,
  initializeTestEnvironment,
  type RulesTestEnvironment,
} from '@firebase/rules-unit-testing'
import { addDoc, collection, deleteDoc, doc, getDoc, getDocs, setDoc, setLogLevel, updateDoc } from 'firebase/firestore'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { PROJECT_ID, ROOT } from '../../emulators/firebase/env.ts'

describe('firestore.rules', () => {
  let env: RulesTestEnvironment

  beforeAll(async () => {
    // Denied requests are the point here: keep the SDK from logging each one as an error.
    setLogLevel('silent')
    // Host and port come from FIRESTORE_EMULATOR_HOST.
    env = await initializeTestEnvironment({
      projectId: PROJECT_ID,
      firestore: { rules: readFileSync(path.join(ROOT, 'firestore.rules'), 'utf8') },
    })
    await env.withSecurityRulesDisabled(async (context) => {
      const db = context.firestore()
      await setDoc(doc(db, 'companies/acme'), { slug: 'acme', companyName: 'Acme Corporation' })
      for (const uid of ['alice', 'bob']) {
        await setDoc(doc(db, `users_access/${uid}`), { claims: { userType: 'client', accessLevel: 1 }, companies: ['acme'] })
        await setDoc(doc(db, `users_preferences/${uid}`), { defaultCompany: 'acme' })
      }
      await setDoc(doc(db, 'email_keys/k1'), { match: '@acme.example', company: 'acme', accessLevel: 1, userType: 'client' })
      await setDoc(doc(db, 'rate_limits/r1'), { count: 1 })
      await setDoc(doc(db, 'events/e1'), { type: 'sign_in', createdByUid: 'alice' })
    })
  })

  afterAll(async () => {
    await env.cleanup()
  })

  it('denies a signed-out read of a company', async () => {
    const db = env.unauthenticatedContext().firestore()
    await assertFails(getDoc(doc(db, 'companies/acme')))
    await assertFails(getDocs(collection(db, 'companies')))
  })

  it('denies a signed-out write of a company', async () => {
    const db = env.unauthenticatedContext().firestore()
    await assertFails(setDoc(doc(db, 'companies/evil'), { slug: 'evil', companyName: 'Evil' }))
  })

  it('lets a signed-in user get their own access and preferences, and nobody else\'s', async () => {
    const alice = env.authenticatedContext('alice').firestore()
    await assertSucceeds(getDoc(doc(alice, 'users_access/alice')))
    await assertSucceeds(getDoc(doc(alice, 'users_preferences/alice')))
    await assertFails(getDoc(doc(alice, 'users_access/bob')))
    await assertFails(getDoc(doc(alice, 'users_preferences/bob')))
    await assertFails(getDocs(collection(alice, 'users_access')))
    await assertFails(getDocs(collection(alice, 'users_preferences')))
    const signedOut = env.unauthenticatedContext().firestore()
    await assertFails(getDoc(doc(signedOut, 'users_access/alice')))
  })

  it('lets nobody write their own access or preferences from a client', async () => {
    const alice = env.authenticatedContext('alice').firestore()
    await assertFails(updateDoc(doc(alice, 'users_access/alice'), { 'claims.accessLevel': 9 }))
    await assertFails(setDoc(doc(alice, 'users_access/alice'), { claims: { userType: 'analyst', accessLevel: 9 } }))
    await assertFails(deleteDoc(doc(alice, 'users_access/alice')))
    await assertFails(setDoc(doc(alice, 'users_preferences/alice'), { defaultCompany: 'globex' }))
  })

  it('keeps rate_limits, email_keys and events away from clients', async () => {
    const alice = env.authenticatedContext('alice', { accessLevel: 9, userType: 'analyst' }).firestore()
    for (const path of ['rate_limits/r1', 'email_keys/k1', 'events/e1']) {
      await assertFails(getDoc(doc(alice, path)))
      await assertFails(setDoc(doc(alice, path), { forged: true }))
      await assertFails(deleteDoc(doc(alice, path)))
    }
    for (const name of ['rate_limits', 'email_keys', 'events']) {
      await assertFails(getDocs(collection(alice, name)))
      await assertFails(addDoc(collection(alice, name), { createdByUid: 'alice' }))
    }
  })
})
