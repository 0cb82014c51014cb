import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  assertFails,
  initializeTestEnvironment,
  type RulesTestEnvironment,
} from '@firebase/rules-unit-testing'
import { collection, doc, getDoc, getDocs, setDoc, setLogLevel } from 'firebase/firestore'
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
      await setDoc(doc(context.firestore(), 'companies/acme'), { slug: 'acme', companyName: 'Acme Corporation' })
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
})
