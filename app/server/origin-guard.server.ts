// Which Host and Origin the Worker answers to. A name an attacker controls can resolve to the
// app's address (DNS rebinding) or be sent by a proxy: anything built from the Host header, such as
// the router's redirects, or compared with it, such as the CSRF origin check, would then trust it.
import type { ServerConfig } from './config.server'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** An origin the app is served at: one of APP_ORIGINS, or a loopback origin for a local demo project. */
export function isAppOrigin(origin: string, config: Pick<ServerConfig, 'appOrigins'>): boolean {
  if (config.appOrigins) return config.appOrigins.includes(origin)
  try {
    const url = new URL(origin)
    return /^https?:$/.test(url.protocol) && url.origin === origin && LOOPBACK.has(url.hostname)
  } catch {
    return false
  }
}

/** Whether the request was addressed to the app (its URL's origin comes from the Host header). */
export const isAppRequest = (request: Request, config: Pick<ServerConfig, 'appOrigins'>): boolean =>
  isAppOrigin(new URL(request.url).origin, config)
