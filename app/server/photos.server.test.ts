// The photo route's rules, with a stand-in for the resizing fetch (the one module under test).
import { describe, expect, it } from 'vitest'
import { photoSrc } from '#domain/photos.ts'
import type { Session } from '~/core/session'
import { handlePhoto, PHOTO_MAX_BYTES, photoAddressRefusal, type PhotoContext } from './photos.server'

const PERSON: Session = { uid: 'u1', email: 'viewer@acme.example', userType: 'client', accessLevel: 1 }
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

function context(answer: () => Response, more: Partial<PhotoContext> = {}) {
  const fetched: { url: string; width: number }[] = []
  const ctx: PhotoContext = {
    session: async () => PERSON,
    fetchResized: async (url, width) => {
      fetched.push({ url, width })
      return answer()
    },
    loopbackAllowed: false,
    ...more,
  }
  return { ctx, fetched }
}
const png = () => new Response(PNG, { headers: { 'content-type': 'image/png' } })
const ask = (path: string, ctx: PhotoContext) => handlePhoto(new Request(`https://app.example${path}`), ctx)

describe('the photo route', () => {
  it('serves the picture at a served width, resized, kept privately for a day', async () => {
    const { ctx, fetched } = context(png)
    const answer = await ask(photoSrc('https://photos.example/me.png', 64), ctx)
    expect(answer.status).toBe(200)
    expect(new Uint8Array(await answer.arrayBuffer())).toEqual(PNG)
    expect(answer.headers.get('content-type')).toBe('image/png')
    expect(answer.headers.get('cache-control')).toBe('private, max-age=86400')
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(fetched).toEqual([{ url: 'https://photos.example/me.png', width: 64 }])
  })

  it('refuses anyone not signed in, before fetching anything', async () => {
    const { ctx, fetched } = context(png, { session: async () => null })
    expect((await ask(photoSrc('https://photos.example/me.png', 64), ctx)).status).toBe(401)
    expect(fetched).toEqual([])
  })

  it.each([
    ['a width the product does not draw at', photoSrc('https://photos.example/me.png', 65), /at 16, 32, .* 3840 px only/],
    ['no width', '/api/photos?url=https%3A%2F%2Fphotos.example%2Fme.png', /Name a width/],
    ['no address', '/api/photos?w=64', /Name the photo/],
    ['an address of another scheme', photoSrc('file:///etc/passwd', 64), /http\(s\) address only/],
    ['javascript:', photoSrc('javascript:alert(1)', 64), /http\(s\) address only/],
    ['a cloud metadata address', photoSrc('http://169.254.169.254/latest/meta-data/', 64), /link-local/],
    ['a private address', photoSrc('https://10.1.2.3/me.png', 64), /private-use/],
    ['plain http', photoSrc('http://photos.example/me.png', 64), /https address only/],
    ['loopback, written as a number', photoSrc('https://2130706433/me.png', 64), /not served from this machine/],
    ['IPv6 loopback', photoSrc('https://[::1]/me.png', 64), /not served from this machine/],
    ['IPv4-mapped IPv6 of a private address', photoSrc('http://[::ffff:192.168.0.1]/me.png', 64), /private-use/],
    ['localhost', photoSrc('http://localhost:8080/me.png', 64), /not served from this machine/],
  ])('refuses %s with 400, fetching nothing', async (_, path, message) => {
    const { ctx, fetched } = context(png)
    const answer = await ask(path, ctx)
    expect(answer.status).toBe(400)
    expect(await answer.text()).toMatch(message)
    expect(fetched).toEqual([])
  })

  it('takes loopback only in local runs against the emulators', async () => {
    expect(photoAddressRefusal(new URL('http://127.0.0.1:9000/me.png'), true)).toBeNull()
    expect(photoAddressRefusal(new URL('http://localhost:9000/me.png'), true)).toBeNull()
    expect(photoAddressRefusal(new URL('http://10.0.0.1/me.png'), true)).toMatch(/private-use/)
    expect(photoAddressRefusal(new URL('http://photos.example/me.png'), true)).toMatch(/https address only/)
    expect(photoAddressRefusal(new URL('https://photos.example/me.png'), false)).toBeNull()
  })

  it.each([
    ['an SVG (it can hold script, and is not resized)', () => new Response('<svg/>', { headers: { 'content-type': 'image/svg+xml' } })],
    ['a page', () => new Response('<html>', { headers: { 'content-type': 'text/html' } })],
    ['a redirect (not followed)', () => new Response(null, { status: 302, headers: { location: 'http://10.0.0.1/' } })],
    ['an error', () => new Response('gone', { status: 404, headers: { 'content-type': 'image/png' } })],
    ['a picture over the limit', () => new Response(new Uint8Array(PHOTO_MAX_BYTES + 1), { headers: { 'content-type': 'image/png' } })],
  ])('answers 502 for %s', async (_, answer) => {
    const { ctx } = context(answer)
    expect((await ask(photoSrc('https://photos.example/me', 64), ctx)).status).toBe(502)
  })

  it('answers 502 when the address cannot be reached', async () => {
    const { ctx } = context(() => {
      throw new TypeError('fetch failed')
    })
    expect((await ask(photoSrc('https://photos.example/me.png', 64), ctx)).status).toBe(502)
  })
})
