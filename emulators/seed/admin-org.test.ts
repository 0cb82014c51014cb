import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { dastKeyStatus, parseDastKeyToken } from '#domain/dast-keys.ts'
import { ScanScopeSchema } from '#domain/scan-scope.ts'
import { DEMO_AUDIT_HISTORY, DEMO_DAST_KEYS, DEMO_SCAN_SCOPES } from './admin-org.ts'
import { DEMO_COMPANIES } from './demo-accounts.ts'

describe('the administration demo data', () => {
  it('gives every demo company a scope in canonical form', () => {
    expect(Object.keys(DEMO_SCAN_SCOPES).sort()).toEqual(DEMO_COMPANIES.map((c) => c.slug).sort())
    for (const [slug, scope] of Object.entries(DEMO_SCAN_SCOPES)) expect(v.parse(ScanScopeSchema, scope), slug).toEqual(scope)
  })

  it('has DAST keys that parse, in every state on the demo day', () => {
    const demoDay = Date.UTC(2026, 10, 20)
    for (const key of DEMO_DAST_KEYS) expect(parseDastKeyToken(key.token)).toEqual({ id: key.id })
    const states = DEMO_DAST_KEYS.map((key) =>
      dastKeyStatus({ expiresAt: Date.parse(key.expiresAt), revokedAt: key.revoked ? demoDay : null }, demoDay),
    )
    expect(new Set(states)).toEqual(new Set(['active', 'expired', 'revoked']))
  })

  it('dates every audit event', () => {
    for (const event of DEMO_AUDIT_HISTORY) expect(Number.isFinite(Date.parse(event.at)), event.at).toBe(true)
  })
})
