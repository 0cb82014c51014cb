// refreshVulnIntelDaily: once a day (EPSS publishes daily scores; KEV changes a few times a week)
// the findings' KEV and EPSS figures are brought up to date.
// The work is in refresh-vuln-intel.ts, which tests run directly (the emulators run no schedules).
import '../options.ts'
import { onSchedule } from 'firebase-functions/v2/scheduler'
import * as logger from 'firebase-functions/logger'
import { adminDb } from '../admin.ts'
import { feedUrls } from './feed-config.ts'
import { refreshVulnIntel } from './refresh-vuln-intel.ts'

export const refreshVulnIntelDaily = onSchedule(
  { schedule: 'every day 06:30', timeZone: 'UTC', timeoutSeconds: 540, memory: '1GiB', retryCount: 2 },
  async () => {
    const summary = await refreshVulnIntel(adminDb(), Date.now(), feedUrls())
    logger.info('refreshVulnIntelDaily: done', { ...summary })
  },
)
