// `npm run bench:vault`: the vault's share links on the whole local stack, in one run. Median time
// to encrypt and store, then to claim and decrypt, a 64 KB secret and a 10 MB file (sealed in
// 1 MiB chunks, stored in R2 through the Worker). Node's WebCrypto does what the browsers do.
import { randomBytes, randomUUID } from 'node:crypto'
import { deleteApp, initializeApp } from 'firebase/app'
import { connectAuthEmulator, getAuth, signInWithEmailLink } from 'firebase/auth'
import { connectFunctionsEmulator, getFunctions, httpsCallable } from 'firebase/functions'
import { LEVEL } from '#domain/access.ts'
import type { CallableName } from '#domain/callables.ts'
import { SIGN_IN_PATH } from '#domain/sign-in.ts'
import { userAccessPath } from '#domain/users-access.ts'
import type { ClaimVaultLinkResponse } from '#domain/vault.ts'
import {
  chunkCount,
  createShareLink,
  deriveLinkKeys,
  FILE_CHUNK_BYTES,
  newFileKey,
  newVaultId,
  openChunk,
  openPayload,
  sealChunk,
  type LinkPolicy,
  type VaultFileEntry,
} from '#domain/vault-crypto.ts'
import { sharedAdmin } from '../../emulators/firebase/admin.ts'
import { EMULATOR_HOST, EMULATOR_PORTS, PROJECT_ID } from '../../emulators/firebase/env.ts'
import { withStack } from './preview-server.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const TOKEN_HEADER = 'x-vault-file-token'

const median = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const time = async <T>(run: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now()
  const value = await run()
  return [value, performance.now() - start]
}

await withStack(async (baseUrl) => {
  const { auth: adminAuth, db } = sharedAdmin()
  const app = initializeApp({ projectId: PROJECT_ID, apiKey: 'fake-api-key' }, `bench-vault-${randomUUID().slice(0, 8)}`)
  const auth = getAuth(app)
  connectAuthEmulator(auth, `http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}`, { disableWarnings: true })
  const functions = getFunctions(app, 'us-central1')
  connectFunctionsEmulator(functions, EMULATOR_HOST, EMULATOR_PORTS.functions)
  const call = async <T>(name: CallableName, data: unknown) => (await httpsCallable(functions, name)(data)).data as T

  // An analyst of Acme, signed in the way the app signs in.
  const email = `bench-vault-${randomUUID().slice(0, 8)}@sectest.example`
  const claims = { userType: 'analyst', accessLevel: LEVEL.analyst }
  const user = await adminAuth.createUser({ email, emailVerified: true })
  await adminAuth.setCustomUserClaims(user.uid, claims)
  await db.doc(userAccessPath(user.uid)).set({ claims, companies: ['acme'], servicesEnabled: [], servicesManaged: [] })
  const link = await adminAuth.generateSignInWithEmailLink(email, { url: `${baseUrl}${SIGN_IN_PATH}`, handleCodeInApp: true })
  await signInWithEmailLink(auth, email, link)
  const idToken = await auth.currentUser!.getIdToken(true)
  const session = { cookie: `__Host-session=${idToken}` }

  async function share(text: string, files: { bytes: Uint8Array<ArrayBuffer>; entry: VaultFileEntry }[]) {
    const policy: LinkPolicy = {
      id: newVaultId(),
      company: 'acme',
      expiresAt: Date.now() + 3600_000 * 2,
      maxViews: 1,
      recipient: null,
      passphrase: false,
    }
    const sealed = await createShareLink(policy, { text, files: files.map((f) => f.entry) }, null)
    for (const [f, { bytes, entry }] of files.entries()) {
      for (let c = 0; c < entry.chunks; c++) {
        const chunk = await sealChunk(
          entry.key,
          policy.id,
          f,
          c,
          c === entry.chunks - 1,
          bytes.slice(c * FILE_CHUNK_BYTES, (c + 1) * FILE_CHUNK_BYTES),
        )
        const response = await fetch(`${baseUrl}/api/vault/files/${policy.id}/${f}/${c}`, {
          method: 'PUT',
          body: chunk,
          headers: { ...session, [TOKEN_HEADER]: sealed.fileToken },
        })
        if (response.status !== 201) throw new Error(`upload answered ${response.status}`)
      }
    }
    const { passphrase: _withPassphrase, ...terms } = policy
    await call('createVaultLink', {
      requestId: crypto.randomUUID(),
      ...terms,
      label: 'bench',
      kdf: null,
      findTokenHash: sealed.findTokenHash,
      openTokenHash: sealed.openTokenHash,
      ...sealed.sealed,
      files: files.length,
    })
    return { id: policy.id, linkKey: sealed.linkKey }
  }

  async function claim(id: string, linkKey: string) {
    const keys = await deriveLinkKeys(id, linkKey)
    const answer = await call<ClaimVaultLinkResponse>('claimVaultLink', { id, findToken: keys.findToken, openToken: keys.openToken })
    if (answer.outcome !== 'opened') throw new Error(`claim refused: ${answer.reason}`)
    const payload = await openPayload(keys.key, answer, answer.policy)
    let bytes = 0
    for (const [f, entry] of payload.files.entries()) {
      for (let c = 0; c < entry.chunks; c++) {
        const response = await fetch(`${baseUrl}/api/vault/files/${id}/${f}/${c}`, { headers: { [TOKEN_HEADER]: keys.fileToken } })
        bytes += (await openChunk(entry.key, id, f, c, c === entry.chunks - 1, new Uint8Array(await response.arrayBuffer()))).length
      }
    }
    await fetch(`${baseUrl}/api/vault/files/${id}`, { method: 'DELETE', headers: { [TOKEN_HEADER]: keys.fileToken } })
    return { text: payload.text, bytes }
  }

  const secret = randomBytes(48 * 1024).toString('base64')
  const file = new Uint8Array(randomBytes(10 * 1024 * 1024))
  const cases = [
    { name: '64 KB secret', text: secret, files: () => [] },
    {
      name: '10 MB file',
      text: 'see the file',
      files: () => [
        {
          bytes: file,
          entry: {
            name: 'data.bin',
            type: 'application/octet-stream',
            size: file.length,
            key: newFileKey(),
            chunks: chunkCount(file.length),
          },
        },
      ],
    },
  ]
  // One of each first: the functions' workers and the Worker warm up.
  for (const c of cases) {
    const made = await share(c.text, c.files())
    await claim(made.id, made.linkKey)
  }
  const rows: string[] = []
  for (const c of cases) {
    const store: number[] = []
    const open: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const [made, stored] = await time(() => share(c.text, c.files()))
      const [opened, claimed] = await time(() => claim(made.id, made.linkKey))
      if (opened.text !== c.text || opened.bytes !== c.files().reduce((sum, f) => sum + f.bytes.length, 0))
        throw new Error('round trip differs')
      store.push(stored)
      open.push(claimed)
    }
    rows.push(
      `${c.name.padEnd(14)} encrypt and store ${median(store).toFixed(0).padStart(6)} ms   claim and decrypt ${median(open).toFixed(0).padStart(6)} ms`,
    )
  }
  console.log(`\nvault share links, median of ${ROUNDS} rounds (local stack)\n${rows.join('\n')}`)
  await deleteApp(app)
})
