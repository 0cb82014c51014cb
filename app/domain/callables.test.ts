import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { CALLABLE_NAMES, callables, isCallableName, NoDataSchema } from './callables.ts'

describe('the callables registry', () => {
  it('makes only the sign-in link, signed-out support and the vault recipient calls public, and asks a level of the template and search callables', () => {
    expect(CALLABLE_NAMES.filter((name) => callables[name].who === 'public')).toEqual([
      'sendSignInLink',
      'handleSignedOutSupportEmail',
      'vaultLinkInfo',
      'claimVaultLink',
      'vaultRequestInfo',
      'submitVaultRequest',
    ])
    for (const name of ['createVaultLink', 'revokeVaultLink', 'createVaultRequest', 'revokeVaultRequest'] as const) {
      expect(callables[name].who({ accessLevel: 5, userType: 'analyst' })).toBe(true)
      expect(callables[name].who({ accessLevel: 3, userType: 'client' })).toBe(false)
    }
    expect(CALLABLE_NAMES.filter((name) => callables[name].who === 'signed-in').sort()).toEqual(['handleSignIn', 'handleSupportEmail'])
    for (const name of ['deleteFindingTemplate', 'importFindingTemplates'] as const) {
      const who = callables[name].who
      expect(who({ accessLevel: 9, userType: 'analyst' })).toBe(true)
      expect(who({ accessLevel: 1, userType: 'client' })).toBe(false)
      expect(who({})).toBe(false)
    }
    // Search keys: the handler decides by type (templates: analysts above 5; findings: the company's people).
    expect(callables.getSearchClient.who({ accessLevel: 9, userType: 'analyst' })).toBe(true)
    expect(callables.getSearchClient.who({ accessLevel: 1, userType: 'client' })).toBe(true)
    expect(callables.getSearchClient.who({})).toBe(false)
  })

  it('knows its names', () => {
    expect(isCallableName('handleSignIn')).toBe(true)
    expect(isCallableName('toString')).toBe(false)
  })

  it('takes nothing for handleSignIn', () => {
    expect(v.is(NoDataSchema, null)).toBe(true)
    expect(v.is(NoDataSchema, undefined)).toBe(true)
    const refused = v.safeParse(NoDataSchema, { uid: 'someone' })
    expect(refused.success).toBe(false)
    expect(refused.issues?.[0]?.message).toBe('This call takes no data')
  })
})
