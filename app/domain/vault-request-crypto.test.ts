import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core'
import { describe, expect, it } from 'vitest'
import { fromBase64Url, newVaultId, toBase64Url, tokenHash, VaultCryptoError } from './vault-crypto.ts'
import {
  createRequestLink,
  openAnswer,
  parseRequestFragment,
  REQUEST_FRAGMENT_PATTERN,
  sealAnswer,
  submitTokenOf,
  type RequestPolicy,
} from './vault-request-crypto.ts'

const hex = (value: string) => Uint8Array.from(Buffer.from(value, 'hex'))
const policy = (): RequestPolicy => ({ id: newVaultId(), company: 'acme', expiresAt: Date.UTC(2026, 11, 1) })
const answer = { text: 'vpn user: acme-test / pw: Tr0ub4dor&3', files: [] }

describe('request link cryptography', () => {
  it('seals an answer to the public key in the fragment; only the vault passphrase opens it', async () => {
    const p = policy()
    const link = await createRequestLink(p.id, 'analyst vault passphrase')
    expect(link.fragment).toMatch(REQUEST_FRAGMENT_PATTERN)
    const { publicKey, secret } = parseRequestFragment(link.fragment)
    expect(await tokenHash(await submitTokenOf(p.id, secret))).toBe(link.submitTokenHash)
    // The stored wrapped key holds nothing of the fragment.
    expect(JSON.stringify(link.wrappedKey)).not.toContain(secret)

    const sealed = await sealAnswer(publicKey, p, answer)
    expect(Buffer.from(fromBase64Url(sealed.ciphertext)).toString('latin1')).not.toContain('Tr0ub4dor')
    expect(await openAnswer(link.wrappedKey, 'analyst vault passphrase', p, sealed)).toEqual(answer)
    await expect(openAnswer(link.wrappedKey, 'another passphrase', p, sealed)).rejects.toThrow('Wrong vault passphrase')
  })

  it('refuses an answer moved to another request or company, or changed on the way', async () => {
    const p = policy()
    const link = await createRequestLink(p.id, 'analyst vault passphrase')
    const sealed = await sealAnswer(parseRequestFragment(link.fragment).publicKey, p, answer)
    await expect(openAnswer(link.wrappedKey, 'analyst vault passphrase', { ...p, company: 'globex' }, sealed)).rejects.toThrow(
      VaultCryptoError,
    )
    await expect(openAnswer(link.wrappedKey, 'analyst vault passphrase', { ...p, expiresAt: p.expiresAt + 1 }, sealed)).rejects.toThrow(
      VaultCryptoError,
    )
    const bytes = fromBase64Url(sealed.ciphertext)
    bytes[0] = bytes[0]! ^ 1
    await expect(openAnswer(link.wrappedKey, 'analyst vault passphrase', p, { ...sealed, ciphertext: toBase64Url(bytes) })).rejects.toThrow(
      VaultCryptoError,
    )
    // Another request's wrapped key does not open it, even under the same passphrase.
    const other = await createRequestLink(p.id, 'analyst vault passphrase')
    await expect(openAnswer(other.wrappedKey, 'analyst vault passphrase', p, sealed)).rejects.toThrow(VaultCryptoError)
    // A wrapped key is bound to its request id.
    await expect(openAnswer(link.wrappedKey, 'analyst vault passphrase', { ...p, id: newVaultId() }, sealed)).rejects.toThrow(
      VaultCryptoError,
    )
  })

  it('refuses broken fragments and short vault passphrases', async () => {
    expect(() => parseRequestFragment('abc.def')).toThrow(VaultCryptoError)
    const link = await createRequestLink(newVaultId(), 'long enough')
    const [pk, secret] = link.fragment.split('.')
    const notAPoint = toBase64Url(new Uint8Array(65).fill(2))
    expect(() => parseRequestFragment(`${notAPoint}.${secret}`)).toThrow(VaultCryptoError)
    expect(parseRequestFragment(`${pk}.${secret}`).publicKey).toHaveLength(65)
    await expect(createRequestLink(newVaultId(), 'short')).rejects.toThrow(VaultCryptoError)
  })
})

describe('@hpke/core against RFC 9180 A.3.1 (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode)', () => {
  const vector = {
    info: '4f6465206f6e2061204772656369616e2055726e',
    ikmR: '668b37171f1072f3cf12ea8a236a45df23fc13b82af3609ad1e354f6ef817550',
    skRm: 'f3ce7fdae57e1a310d87f1ebbde6f328be0a99cdbcadf4d6589cf29de4b8ffd2',
    pkRm: '04fe8c19ce0905191ebc298a9245792531f26f0cece2460639e8bc39cb7f706a826a779b4cf969b8a0e539c7f62fb3d30ad6aa8f80e30f1d128aafd68a2ce72ea0',
    enc: '04a92719c6195d5085104f469a8b9814d5838ff72b60501e2c4466e5e67b325ac98536d7b61a1af4b78e5b7f951c0900be863c403ce65c9bfcb9382657222d18c4',
    pt: '4265617574792069732074727574682c20747275746820626561757479',
    aad: '436f756e742d30',
    ct: '5ad590bb8baa577f8619db35a36311226a896e7342a6d836d8b7bcd2f20b6c7f9076ac232e3ab2523f39513434',
  }

  it('derives the published key pair and opens the published first ciphertext', async () => {
    const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() })
    const pair = await suite.kem.deriveKeyPair(hex(vector.ikmR))
    expect(Buffer.from(await suite.kem.serializePrivateKey(pair.privateKey)).toString('hex')).toBe(vector.skRm)
    expect(Buffer.from(await suite.kem.serializePublicKey(pair.publicKey)).toString('hex')).toBe(vector.pkRm)
    const opened = await suite.open({ recipientKey: pair, enc: hex(vector.enc), info: hex(vector.info) }, hex(vector.ct), hex(vector.aad))
    expect(Buffer.from(opened).toString('hex')).toBe(vector.pt)
  })
})
