import { describe, expect, it } from 'vitest'
import { EPSS_FEED_URL, KEV_FEED_URL } from '#domain/vuln-intel.ts'
import { feedUrls } from './feed-config.ts'

describe('the feed addresses', () => {
  it('are the public feeds unless set', () => {
    expect(feedUrls({})).toEqual({ kevUrl: KEV_FEED_URL, epssUrl: EPSS_FEED_URL })
    expect(KEV_FEED_URL).toMatch(/^https:\/\/www\.cisa\.gov\//)
    expect(EPSS_FEED_URL).toMatch(/^https:\/\/.+\.csv\.gz$/)
  })

  it('take https anywhere, or http to this machine (a test serving the files on loopback)', () => {
    expect(feedUrls({ KEV_FEED_URL: 'https://mirror.example/kev.json', EPSS_FEED_URL: 'http://127.0.0.1:8123/epss.csv.gz' })).toEqual({
      kevUrl: 'https://mirror.example/kev.json',
      epssUrl: 'http://127.0.0.1:8123/epss.csv.gz',
    })
  })

  it('refuse http to another host and what is not an address, naming the setting', () => {
    expect(() => feedUrls({ KEV_FEED_URL: 'http://mirror.example/kev.json' })).toThrow(
      'KEV_FEED_URL: A feed address is https, or http to this machine',
    )
    expect(() => feedUrls({ EPSS_FEED_URL: 'file:///etc/passwd' })).toThrow('EPSS_FEED_URL:')
    expect(() => feedUrls({ EPSS_FEED_URL: 'not an address' })).toThrow('EPSS_FEED_URL: Expected a feed address')
  })
})
