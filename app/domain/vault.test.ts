import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  browserOf,
  CLAIM_REFUSALS,
  CreateVaultLinkRequestSchema,
  filesGateFromDocument,
  filesWantedUntil,
  linkStatus,
  refusalMessage,
  VAULT_FILE_LIMITS,
  VAULT_LIMITS,
} from './vault.ts'

const HOUR = 3600_000

describe('linkStatus', () => {
  const now = Date.UTC(2026, 10, 24, 12)
  it('reads waiting, opened, used, expired and burned', () => {
    expect(linkStatus({ state: 'active', expiresAt: now + HOUR, views: 0 }, now)).toBe('waiting')
    expect(linkStatus({ state: 'active', expiresAt: now + HOUR, views: 1 }, now)).toBe('opened')
    expect(linkStatus({ state: 'active', expiresAt: now, views: 1 }, now)).toBe('expired')
    expect(linkStatus({ state: 'used', expiresAt: now - HOUR, views: 1 }, now)).toBe('used')
    expect(linkStatus({ state: 'revoked', expiresAt: now + HOUR, views: 0 }, now)).toBe('burned')
  })
})

describe('filesWantedUntil', () => {
  const now = Date.UTC(2026, 11, 1, 12)
  const gate = (fields: Record<string, unknown>) => filesGateFromDocument({ open: false, expiresAt: now + HOUR, ...fields })!
  it('keeps files while the gate is open, a used link’s for the download, an answered request’s until it goes', () => {
    expect(filesWantedUntil(gate({ open: true }))).toBe(now + HOUR)
    expect(filesWantedUntil(gate({ closed: 'used', closedAt: now }))).toBe(now + VAULT_FILE_LIMITS.downloadWindowMs)
    expect(filesWantedUntil(gate({ closed: 'answered', purgeAt: now + 31 * 24 * HOUR }))).toBe(now + 31 * 24 * HOUR)
    // A request gate shut before gates said why: kept as an answered one.
    expect(filesWantedUntil(gate({}))).toBe(now + HOUR + VAULT_LIMITS.keepRecordMs)
  })
  it('wants none of a revoked link’s, a withdrawn or expired request’s files', () => {
    for (const closed of ['revoked', 'withdrawn', 'expired']) expect(filesWantedUntil(gate({ closed, closedAt: now }))).toBe(0)
    expect(filesGateFromDocument({ open: false })).toBeNull()
  })
})

describe('browserOf', () => {
  it('names common browsers and their systems, and keeps odd agents short and printable', () => {
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'
    expect(browserOf(chrome)).toBe('Chrome 140 on Linux')
    expect(browserOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:139.0) Gecko/20100101 Firefox/139.0')).toBe('Firefox 139 on Windows')
    expect(
      browserOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15'),
    ).toBe('Safari 18 on macOS')
    expect(browserOf(`<script>${'x'.repeat(100)}\u0000`)).toHaveLength(40)
    expect(browserOf(null)).toBe('unknown browser')
  })
})

describe('refusalMessage', () => {
  it('says plainly what happened and whom to ask', () => {
    for (const reason of CLAIM_REFUSALS) expect(refusalMessage(reason, 'Ana Analyst', 0).length).toBeGreaterThan(10)
    expect(refusalMessage('expired', 'Ana Analyst')).toBe('This link has expired. Ask Ana Analyst for a new link.')
    expect(refusalMessage('wrong-passphrase', 'Ana', 1)).toBe('Wrong passphrase. 1 try left.')
    expect(refusalMessage('wrong-passphrase', 'Ana', 0)).toBe('Wrong passphrase: the link is now revoked. Ask Ana for a new link.')
  })
})

describe('createVaultLink request', () => {
  const request = {
    requestId: 'request-0123456789',
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    company: 'acme',
    expiresAt: Date.now() + HOUR,
    maxViews: 1,
    recipient: ' Client@Acme.Example ',
    label: 'VPN',
    kdf: null,
    findTokenHash: 'A'.repeat(43),
    openTokenHash: 'B'.repeat(43),
    ciphertext: 'C'.repeat(40),
    iv: 'D'.repeat(16),
  }
  it('takes ciphertext and hashes only, within the limits', () => {
    expect(v.parse(CreateVaultLinkRequestSchema, request).recipient).toBe('client@acme.example')
    for (const bad of [
      { maxViews: 11 },
      { maxViews: 0 },
      { plaintext: 'hunter2' },
      { ciphertext: 'not base64url!' },
      { kdf: { salt: 'AAAA', iterations: 100_000 } },
      { id: '../../etc' },
    ])
      expect(v.safeParse(CreateVaultLinkRequestSchema, { ...request, ...bad }).success).toBe(false)
  })
})
