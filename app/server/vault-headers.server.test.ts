import { describe, expect, it } from 'vitest'
import { firebaseOrigins, isVaultPage, newNonce, scriptHash, vaultHeaders } from './vault-headers.server'

describe('vault page headers', () => {
  it('apply to /vault and below only', () => {
    expect(isVaultPage('/vault/s/abc')).toBe(true)
    expect(isVaultPage('/vault')).toBe(true)
    expect(isVaultPage('/vaults')).toBe(false)
    expect(isVaultPage('/analyst/vault/link')).toBe(false)
  })

  it('allow our scripts by nonce and hash, no third party, no referrer, no cache, no index', async () => {
    const nonce = newNonce()
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(newNonce()).not.toBe(nonce)
    const hash = await scriptHash('alert(1)')
    // The value browsers report for alert(1).
    expect(hash).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='")
    const headers = vaultHeaders(
      nonce,
      [hash],
      firebaseOrigins({ projectId: 'p', emulators: { auth: '127.0.0.1:9099', functions: '127.0.0.1:5001' } }),
    )
    const csp = headers['Content-Security-Policy']
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' ${hash};`)
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:9099 http://127.0.0.1:5001;")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(headers).toMatchObject({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' })
  })

  it('reach only the project own Firebase endpoints when deployed', () => {
    expect(firebaseOrigins({ projectId: 'bulwark-prod', emulators: null })).toEqual([
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://us-central1-bulwark-prod.cloudfunctions.net',
    ])
  })
})
