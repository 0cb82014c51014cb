// The photos' context in the Worker: the request's session, and Cloudflare's image transformations
// (`cf.image` on a fetch; in local runs Miniflare resizes with Sharp). Redirects are not followed:
// where a photo's address leads is checked only for the address itself.
import { publicConfig } from './config.server'
import { handlePhoto } from './photos.server'
import { readSession } from './session.server'

export function servePhoto(request: Request): Promise<Response> {
  return handlePhoto(request, {
    session: async () => (await readSession())?.session ?? null,
    fetchResized: (url, width) =>
      fetch(url, {
        redirect: 'manual',
        headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif' },
        cf: { image: { width, height: width, fit: 'cover', quality: 80 } },
      } as RequestInit),
    loopbackAllowed: Boolean(publicConfig().emulators),
  })
}
