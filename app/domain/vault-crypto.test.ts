import { createHash, hkdfSync, pbkdf2Sync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  chunkCount,
  createShareLink,
  FILE_CHUNK_BYTES,
  newFileKey,
  openChunk,
  sealChunk,
  SEALED_CHUNK_OVERHEAD,
  deriveLinkKeys,
  findTokenOf,
  fromBase64Url,
  LINK_ID_PATTERN,
  LINK_KEY_PATTERN,
  newVaultId,
  openPayload,
  policyBytes,
  toBase64Url,
  tokenHash,
  VAULT_PBKDF2_ITERATIONS,
  VaultCryptoError,
  type LinkPolicy,
} from './vault-crypto.ts'

const policy = (overrides: Partial<LinkPolicy> = {}): LinkPolicy => ({
  id: newVaultId(),
  company: 'acme',
  expiresAt: Date.UTC(2026, 10, 25, 12),
  maxViews: 1,
  recipient: null,
  passphrase: false,
  ...overrides,
})
const payload = { text: 'vpn: hunter2 — ключ 🔑', files: [] }

/** Flips one bit of a base64url string's bytes. */
const flip = (text: string, at = 0) => {
  const bytes = fromBase64Url(text)
  bytes[at] = bytes[at]! ^ 1
  return toBase64Url(bytes)
}

describe('base64url', () => {
  it('round-trips every byte value and refuses other alphabets', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i)
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes)
    expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'))
    expect(() => fromBase64Url('a+b/')).toThrow(VaultCryptoError)
  })
})

describe('share link cryptography', () => {
  it('round-trips a payload and gives a link key and id fit for a path and a fragment', async () => {
    const p = policy()
    const link = await createShareLink(p, payload, null)
    expect(p.id).toMatch(LINK_ID_PATTERN)
    expect(link.linkKey).toMatch(LINK_KEY_PATTERN)
    const keys = await deriveLinkKeys(p.id, link.linkKey)
    expect(await openPayload(keys.key, link.sealed, p)).toEqual(payload)
    expect(await tokenHash(keys.openToken)).toBe(link.openTokenHash)
    expect(await tokenHash(keys.findToken)).toBe(link.findTokenHash)
    // The ciphertext holds no trace of the text.
    expect(Buffer.from(fromBase64Url(link.sealed.ciphertext)).toString('latin1')).not.toContain('hunter2')
  })

  it('refuses a tampered ciphertext, IV or policy', async () => {
    const p = policy({ maxViews: 2 })
    const link = await createShareLink(p, payload, null)
    const { key } = await deriveLinkKeys(p.id, link.linkKey)
    await expect(openPayload(key, { ...link.sealed, ciphertext: flip(link.sealed.ciphertext, 3) }, p)).rejects.toThrow(VaultCryptoError)
    await expect(openPayload(key, { ...link.sealed, iv: flip(link.sealed.iv) }, p)).rejects.toThrow(VaultCryptoError)
    for (const changed of [{ maxViews: 10 }, { expiresAt: p.expiresAt + 1 }, { company: 'globex' }, { recipient: 'x@example.com' }]) {
      await expect(openPayload(key, link.sealed, { ...p, ...changed })).rejects.toThrow(VaultCryptoError)
    }
  })

  it('refuses another link key', async () => {
    const p = policy()
    const link = await createShareLink(p, payload, null)
    const other = await createShareLink(p, payload, null)
    const { key } = await deriveLinkKeys(p.id, other.linkKey)
    await expect(openPayload(key, link.sealed, p)).rejects.toThrow(VaultCryptoError)
  })

  it('with a passphrase: the right one opens, a wrong one gives another open token and no plaintext; the find token needs none', async () => {
    const p = policy({ passphrase: true })
    const link = await createShareLink(p, payload, 'correct horse')
    expect(link.kdf?.iterations).toBe(VAULT_PBKDF2_ITERATIONS)
    const kdf = link.kdf!
    const right = await deriveLinkKeys(p.id, link.linkKey, { text: 'correct horse', kdf })
    expect(await openPayload(right.key, link.sealed, p)).toEqual(payload)
    const wrong = await deriveLinkKeys(p.id, link.linkKey, { text: 'correct horsE', kdf })
    expect(await tokenHash(wrong.openToken)).not.toBe(link.openTokenHash)
    await expect(openPayload(wrong.key, link.sealed, p)).rejects.toThrow(VaultCryptoError)
    // Without the passphrase: the link is found, nothing opens.
    const none = await deriveLinkKeys(p.id, link.linkKey)
    expect(await tokenHash(await findTokenOf(p.id, link.linkKey))).toBe(link.findTokenHash)
    expect(none.findToken).toBe(right.findToken)
    await expect(openPayload(none.key, link.sealed, p)).rejects.toThrow(VaultCryptoError)
    await expect(createShareLink({ ...p, passphrase: false }, payload, 'x')).rejects.toThrow(VaultCryptoError)
  })

  it('refuses fewer PBKDF2 iterations than the floor', async () => {
    const p = policy({ passphrase: true })
    const link = await createShareLink(p, payload, 'pw')
    await expect(deriveLinkKeys(p.id, link.linkKey, { text: 'pw', kdf: { ...link.kdf!, iterations: 1000 } })).rejects.toThrow(
      VaultCryptoError,
    )
  })

  it('derives the tokens and key as the protocol states (known answers from node:crypto)', async () => {
    const k = new Uint8Array(32).fill(7)
    const id = 'AAAAAAAAAAAAAAAAAAAAAA'
    const salt = toBase64Url(new Uint8Array(16).fill(9))
    const keys = await deriveLinkKeys(id, toBase64Url(k), { text: 'pw', kdf: { salt, iterations: VAULT_PBKDF2_ITERATIONS } })
    const stretched = pbkdf2Sync('pw', Buffer.from(new Uint8Array(16).fill(9)), VAULT_PBKDF2_ITERATIONS, 32, 'sha256')
    const ikm = Buffer.concat([k, stretched])
    const expect256 = (material: Uint8Array, info: string) => Buffer.from(hkdfSync('sha256', material, id, info, 32)).toString('base64url')
    expect(keys.findToken).toBe(expect256(k, 'bulwark/vault/link/v1/find'))
    expect(keys.openToken).toBe(expect256(ikm, 'bulwark/vault/link/v1/open'))
    expect(await tokenHash('abc')).toBe(createHash('sha256').update('abc').digest('base64url'))
  })

  it('writes the policy as additional data in one fixed order', () => {
    const p = policy({ id: 'x', recipient: 'r@example.com' })
    const reordered = {
      passphrase: p.passphrase,
      recipient: p.recipient,
      maxViews: p.maxViews,
      expiresAt: p.expiresAt,
      company: p.company,
      id: p.id,
    }
    expect(new TextDecoder().decode(policyBytes(reordered))).toBe(
      `{"v":1,"id":"x","company":"acme","expiresAt":${p.expiresAt},"maxViews":1,"recipient":"r@example.com","passphrase":false}`,
    )
  })
})

describe('file chunks', () => {
  it('round-trip, and refuse a chunk moved to another place, file or link, or cut short', async () => {
    const key = newFileKey()
    const id = newVaultId()
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251)
    const sealed = await sealChunk(key, id, 0, 2, true, bytes)
    expect(sealed.length).toBe(bytes.length + SEALED_CHUNK_OVERHEAD)
    expect(await openChunk(key, id, 0, 2, true, sealed)).toEqual(bytes)
    await expect(openChunk(key, id, 0, 1, true, sealed)).rejects.toThrow(VaultCryptoError)
    await expect(openChunk(key, id, 1, 2, true, sealed)).rejects.toThrow(VaultCryptoError)
    await expect(openChunk(key, newVaultId(), 0, 2, true, sealed)).rejects.toThrow(VaultCryptoError)
    // A chunk that was not the last one cannot pass for the end of the file.
    await expect(openChunk(key, id, 0, 2, false, sealed)).rejects.toThrow(VaultCryptoError)
    await expect(openChunk(newFileKey(), id, 0, 2, true, sealed)).rejects.toThrow(VaultCryptoError)
    expect(chunkCount(0)).toBe(1)
    expect(chunkCount(FILE_CHUNK_BYTES)).toBe(1)
    expect(chunkCount(FILE_CHUNK_BYTES + 1)).toBe(2)
  })

  it('gives a file token that needs the passphrase too', async () => {
    const p = policy({ passphrase: true })
    const link = await createShareLink(p, payload, 'pw')
    const right = await deriveLinkKeys(p.id, link.linkKey, { text: 'pw', kdf: link.kdf! })
    const wrong = await deriveLinkKeys(p.id, link.linkKey, { text: 'pW', kdf: link.kdf! })
    expect(right.fileToken).toBe(link.fileToken)
    expect(wrong.fileToken).not.toBe(link.fileToken)
  })
})
