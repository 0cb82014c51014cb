import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { EMAIL_PATTERN, INVALID_EMAIL, isTimeZone, lastSignInOf, SignInRequestSchema } from './sign-in.ts'
import { HandleSignInResponseSchema } from './users-access.ts'

const good = { email: 'viewer@acme.example', url: 'http://127.0.0.1:3000', timeZone: 'Europe/Paris' }
const issues = (input: unknown) => {
  const result = v.safeParse(SignInRequestSchema, input)
  return result.success ? [] : result.issues.map((issue) => issue.message)
}

describe('EMAIL_PATTERN', () => {
  it('is text@text', () => {
    for (const ok of ['a@b', 'first.last+tag@sub.example.com', 'x@localhost']) expect(EMAIL_PATTERN.test(ok)).toBe(true)
    for (const bad of ['', 'a', '@b', 'a@', 'a@b@c', 'a b@c', 'a@b c', ' a@b']) expect(EMAIL_PATTERN.test(bad)).toBe(false)
  })
})

describe('SignInRequestSchema', () => {
  it('accepts a request and normalizes the address', () => {
    expect(v.parse(SignInRequestSchema, { ...good, email: '  Viewer@ACME.example ' })).toEqual(good)
    expect(v.parse(SignInRequestSchema, { ...good, url: 'tauri://localhost/auth/redirect' }).url).toBe('tauri://localhost/auth/redirect')
    // The desktop app's marker.
    expect(v.parse(SignInRequestSchema, { ...good, via: 'desktop' }).via).toBe('desktop')
  })

  it('says "Invalid email" for a missing, malformed or over-long address', () => {
    expect(issues({ url: good.url, timeZone: good.timeZone })).toEqual([INVALID_EMAIL])
    expect(issues({ ...good, email: 'not-an-email' })).toEqual([INVALID_EMAIL])
    expect(issues({ ...good, email: 42 })).toEqual([INVALID_EMAIL])
    expect(issues({ ...good, email: `${'a'.repeat(245)}@x.example` })).toEqual([INVALID_EMAIL])
    expect(issues({ ...good, email: `${'a'.repeat(244)}@x.example` }).length).toBe(0)
  })

  it('rejects extra keys, bad URLs and unknown time zones', () => {
    expect(issues({ ...good, extra: 1 })).toHaveLength(1)
    expect(issues({ ...good, url: 'not a url' })).toEqual(['Invalid url'])
    expect(issues({ ...good, url: `http://x.example/${'a'.repeat(2048)}` })).toEqual(['Invalid url'])
    expect(issues({ ...good, timeZone: 'Mars/Olympus_Mons' })).toEqual(['Invalid time zone'])
    expect(issues({ ...good, timeZone: '' })).toEqual(['Invalid time zone'])
    expect(issues({ ...good, via: 'browser' })).toEqual(['Invalid via'])
    expect(issues('viewer@acme.example')).toHaveLength(1)
    expect(issues(null)).toHaveLength(1)
  })
})

describe('isTimeZone', () => {
  it('knows IANA zones and UTC', () => {
    for (const zone of ['UTC', 'Europe/Paris', 'Asia/Kathmandu', 'America/Argentina/Buenos_Aires']) expect(isTimeZone(zone)).toBe(true)
    for (const zone of ['', 'Nowhere', 'Europe/Atlantis']) expect(isTimeZone(zone)).toBe(false)
  })
})

describe('HandleSignInResponseSchema', () => {
  it('is an access level and a user type', () => {
    expect(v.is(HandleSignInResponseSchema, { accessLevel: 7, userType: 'analyst' })).toBe(true)
    expect(v.is(HandleSignInResponseSchema, { accessLevel: 7, userType: 'admin' })).toBe(false)
    expect(v.is(HandleSignInResponseSchema, { accessLevel: '7', userType: 'client' })).toBe(false)
  })
})

describe('lastSignInOf', () => {
  const at = 'Tue, 01 Dec 2026 09:30:00 GMT'

  it("is Auth's last sign-in of an account whose address a link proved", () => {
    expect(lastSignInOf({ emailVerified: true, metadata: { lastSignInTime: at } })).toBe(Date.parse(at))
    expect(lastSignInOf({ emailVerified: true, metadata: {} })).toBeNull()
  })

  it('is never for an invitee who has not opened a link yet, whatever time Auth stamped at the account’s creation', () => {
    // An administrator's createUser: Auth's emulator sets the last sign-in to the creation time.
    expect(lastSignInOf({ emailVerified: false, metadata: { lastSignInTime: at } })).toBeNull()
    expect(lastSignInOf({ emailVerified: false, metadata: { lastSignInTime: null } })).toBeNull()
  })
})
