// A person's photo through the app's own origin, resized to a served width (decision 0054): only
// for someone signed in, only from a public web address (locally, where the emulators run, also
// loopback, over http too), only a raster picture of a bounded size, kept by the browser for a day.
import * as v from 'valibot'
import { PhotoRequestSchema } from '#domain/photos.ts'
import { parseIp } from '#domain/scan-scope.ts'
import { classifyAddress } from '#domain/special-addresses.ts'
import type { Session } from '~/core/session'

/** Pictures a browser draws without running anything (an SVG can hold script, and is not resized). */
const RASTER_TYPES = ['image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']
/** The most a served photo may weigh once resized (a 384 px square is far below it). */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024

export interface PhotoContext {
  session(): Promise<Session | null>
  /** The picture at `url`, resized to a `width` px square (Cloudflare's image transformations). */
  fetchResized(url: string, width: number): Promise<Response>
  /** Local runs against the emulators: a loopback address may be a photo's host. */
  loopbackAllowed: boolean
}

const refused = (status: number, message: string) =>
  new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } })

/**
 * Why a photo may not be fetched from this address, or null when it may: https from a public
 * host; in local runs also loopback, over http too (a test's picture server).
 */
export function photoAddressRefusal(url: URL, loopbackAllowed: boolean): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const address = parseIp(host)
  const special = address ? classifyAddress(address).special : null
  const loopback = host === 'localhost' || host.endsWith('.localhost') || special?.name === 'loopback'
  if (loopback) return loopbackAllowed ? null : 'A photo is not served from this machine'
  if (special) return `A photo is not served from a ${special.name} address`
  if (url.protocol !== 'https:') return 'A photo is served from an https address only'
  return null
}

export async function handlePhoto(request: Request, context: PhotoContext): Promise<Response> {
  if (!(await context.session())) return refused(401, 'Sign in to see photos')
  const query = Object.fromEntries(new URL(request.url).searchParams)
  const parsed = v.safeParse(PhotoRequestSchema, { url: query.url, w: query.w })
  if (!parsed.success) return refused(400, parsed.issues[0].message)
  const { url, w: width } = parsed.output
  const addressRefusal = photoAddressRefusal(new URL(url), context.loopbackAllowed)
  if (addressRefusal) return refused(400, addressRefusal)

  let answer: Response
  try {
    answer = await context.fetchResized(url, width)
  } catch {
    return refused(502, 'The photo could not be fetched')
  }
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  const length = Number(answer.headers.get('content-length') ?? NaN)
  if (!answer.ok || !RASTER_TYPES.includes(type) || length > PHOTO_MAX_BYTES) {
    await answer.body?.cancel()
    return refused(502, answer.ok ? 'The address does not hold a picture Bulwark shows' : `The photo's address answered ${answer.status}`)
  }
  const bytes = await answer.arrayBuffer()
  if (bytes.byteLength > PHOTO_MAX_BYTES) return refused(502, 'The photo is too large')
  return new Response(bytes, {
    headers: {
      'content-type': type,
      // Per person (a session saw it), for a day: a changed photo is a new address.
      'cache-control': 'private, max-age=86400',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
    },
  })
}
