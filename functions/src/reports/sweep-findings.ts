// sweepFindings: every hour, accepted risks whose expiry passed reopen and SLA states move on
// (reports/sweep.ts holds the work, which tests run directly).
import '../options.ts'
import { onSchedule } from 'firebase-functions/v2/scheduler'
import * as logger from 'firebase-functions/logger'
import { adminDb } from '../admin.ts'
import { sweepFindings as sweep } from './sweep.ts'

export const sweepFindings = onSchedule({ schedule: 'every 60 minutes', timeZone: 'UTC' }, async () => {
  const summary = await sweep(adminDb(), Date.now())
  logger.info('sweepFindings: done', { ...summary })
})
