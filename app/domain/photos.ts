// People's photos (the https address each chose in Settings), served through the app's own
// origin at the widths the product draws images at, so a page never loads a picture from another
// site (which would tell that site who looks at whom) and a 32 px avatar is not a 4 MB download.
import * as v from 'valibot'

/** Widths of pictures that fill a screen's width, and of small pictures drawn at a fixed size (px). */
export const IMAGE_WIDTHS = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const
export const IMAGE_SIZES = [16, 32, 48, 64, 96, 128, 256, 384] as const
const SERVED_WIDTHS: readonly number[] = [...IMAGE_SIZES, ...IMAGE_WIDTHS]

export const PHOTOS_PATH = '/api/photos'
/** The longest photo address kept (as the security rules for users_preferences bound it). */
export const PHOTO_URL_MAX = 2_048

/** The served width nearest above `px` (the largest one when none is). */
export function servedWidth(px: number): number {
  return SERVED_WIDTHS.find((width) => width >= px) ?? SERVED_WIDTHS[SERVED_WIDTHS.length - 1]!
}

/** The address of a photo at a served width. */
export const photoSrc = (url: string, width: number) => `${PHOTOS_PATH}?${new URLSearchParams({ url, w: String(width) })}`

/** A photo drawn `size` px square: its address and the one for screens of twice the density. */
export function photoSources(url: string, size: number): { src: string; srcSet: string } {
  const once = photoSrc(url, servedWidth(size))
  return { src: once, srcSet: `${once} 1x, ${photoSrc(url, servedWidth(size * 2))} 2x` }
}

/** A photo request: an absolute http(s) address (the route takes http from loopback only) and one of the served widths. */
export const PhotoRequestSchema = v.object({
  url: v.pipe(
    v.string('Name the photo'),
    v.maxLength(PHOTO_URL_MAX, 'The photo address is too long'),
    v.url('The photo address is not an address'),
    v.check((url) => /^https?:$/.test(new URL(url).protocol), 'A photo is served from an http(s) address only'),
  ),
  w: v.pipe(
    v.string('Name a width'),
    v.transform(Number),
    v.check((width) => SERVED_WIDTHS.includes(width), `A photo is served at ${SERVED_WIDTHS.join(', ')} px only`),
  ),
})
