import { Timestamp } from 'firebase-admin/firestore'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ACCOUNTS, DEMO_COMPANIES, DEMO_EMAIL_KEYS } from '../../emulators/seed/demo-accounts.ts'
import { connectToEmulators, disconnect, isEmulatorEmpty, seedDemoData, type AdminClients } from '../../emulators/seed/seed.ts'
import { clearEmulators, readProjectState } from './emulator-data.ts'

describe('demo seed', () => {
  let clients: AdminClients

  beforeAll(async () => {
    await clearEmulators()
    clients = connectToEmulators()
  })

  afterAll(async () => {
    await disconnect(clients)
  })

  it('sees an empty emulator as empty, and a seeded one as not', async () => {
    expect(await isEmulatorEmpty(clients)).toBe(true)
    expect(await seedDemoData(clients)).toEqual({
      companies: DEMO_COMPANIES.length,
      accounts: DEMO_ACCOUNTS.length,
      emailKeys: DEMO_EMAIL_KEYS.length,
    })
    expect(await isEmulatorEmpty(clients)).toBe(false)
  })

  it('creates every demo account in Auth with its profile and custom claims', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const user = await clients.auth.getUser(account.uid)
      expect(user.email).toBe(account.email)
      expect(user.displayName).toBe(account.displayName)
      expect(user.emailVerified).toBe(true)
      expect(user.customClaims).toEqual({ userType: account.userType, accessLevel: account.accessLevel })
    }
  })

  it('writes users_access and users_preferences for every account', async () => {
    for (const account of DEMO_ACCOUNTS) {
      const access = await clients.db.doc(`users_access/${account.uid}`).get()
      expect(access.data()).toEqual({
        claims: { userType: account.userType, accessLevel: account.accessLevel },
        companies: account.companies,
        servicesEnabled: account.servicesEnabled,
        servicesManaged: account.servicesManaged,
      })
      const preferences = await clients.db.doc(`users_preferences/${account.uid}`).get()
      expect(preferences.data()).toEqual({ defaultCompany: account.defaultCompany })
    }
  })

  it('writes every company with its slug, name and all eight feature flags', async () => {
    for (const company of DEMO_COMPANIES) {
      const snapshot = await clients.db.doc(`companies/${company.slug}`).get()
      const data = snapshot.data()
      expect(data).toEqual(company)
      expect(Object.keys(data ?? {}).filter((key) => key.startsWith('enable'))).toHaveLength(8)
    }
  })

  it('writes every email key, and no account for the address it lets in', async () => {
    for (const key of DEMO_EMAIL_KEYS) {
      const data = (await clients.db.doc(`email_keys/${key.id}`).get()).data()
      expect(data).toMatchObject({
        match: key.match,
        company: key.company,
        accessLevel: key.accessLevel,
        userType: key.userType,
        createdBy: key.createdBy,
      })
      expect(data?.createdAt).toBeInstanceOf(Timestamp)
      await expect(clients.auth.getUserByEmail(key.example)).rejects.toMatchObject({ code: 'auth/user-not-found' })
    }
  })

  it('is idempotent: a second run changes nothing', async () => {
    const before = await readProjectState(clients)
    await seedDemoData(clients)
    expect(await readProjectState(clients)).toEqual(before)
  })

  it('puts back what was changed since the last run', async () => {
    const seeded = await readProjectState(clients)
    const viewer = DEMO_ACCOUNTS[0]
    if (!viewer) throw new Error('no demo accounts')
    await clients.auth.updateUser(viewer.uid, { displayName: 'Renamed', emailVerified: false })
    await clients.auth.setCustomUserClaims(viewer.uid, { accessLevel: 9, userType: 'analyst', extra: true })
    await clients.db.doc('companies/umbrella').set({ enableDast: true, note: 'edited' }, { merge: true })
    await clients.db.doc(`users_access/${viewer.uid}`).update({ companies: ['umbrella'] })
    // The same address held by an account with another uid.
    const manager = DEMO_ACCOUNTS[1]
    if (!manager) throw new Error('no second demo account')
    await clients.auth.deleteUser(manager.uid)
    await clients.auth.createUser({ uid: 'someone-else', email: manager.email })

    // The email key's newcomer signed in once and was provisioned.
    const key = DEMO_EMAIL_KEYS[0]
    if (!key) throw new Error('no demo email keys')
    const newcomer = await clients.auth.createUser({ email: key.example, emailVerified: true })
    await clients.db.doc(`users_access/${newcomer.uid}`).set({ claims: { userType: 'client', accessLevel: 1 } })
    await clients.db.doc(`users_preferences/${newcomer.uid}`).set({ defaultCompany: key.company })
    await clients.db.doc(`email_keys/${key.id}`).update({ accessLevel: 9 })

    await seedDemoData(clients)
    expect(await readProjectState(clients)).toEqual(seeded)
  })
})
