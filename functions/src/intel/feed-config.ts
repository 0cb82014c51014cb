// Where the daily refresh downloads the feeds from: the public addresses unless KEV_FEED_URL or
// EPSS_FEED_URL says otherwise (a test's loopback server). Only https, or http to this machine:
// a setting cannot point the function at another host in the clear.
import * as v from 'valibot'
import { EPSS_FEED_URL, KEV_FEED_URL } from '#domain/vuln-intel.ts'

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

export const FeedUrlSchema = v.pipe(
  v.string(),
  v.url('Expected a feed address'),
  v.check((value) => {
    // The pipe goes on after a failed v.url: an unparseable address is left to its message.
    if (!URL.canParse(value)) return true
    const url = new URL(value)
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))
  }, 'A feed address is https, or http to this machine'),
)

export interface FeedUrls {
  kevUrl: string
  epssUrl: string
}

export function feedUrls(env: NodeJS.ProcessEnv = process.env): FeedUrls {
  const parse = (name: string, value: string | undefined, fallback: string) => {
    const result = v.safeParse(FeedUrlSchema, value || fallback)
    if (!result.success) throw new Error(`${name}: ${result.issues[0].message}`)
    return result.output
  }
  return {
    kevUrl: parse('KEV_FEED_URL', env.KEV_FEED_URL, KEV_FEED_URL),
    epssUrl: parse('EPSS_FEED_URL', env.EPSS_FEED_URL, EPSS_FEED_URL),
  }
}
