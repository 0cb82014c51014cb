// sweepVault: every 15 minutes, expired vault ciphertexts and old link records are deleted
// (vault-sweep.ts holds the work, which tests run directly).
import '../options.ts'
import * as logger from 'firebase-functions/logger'
import { onSchedule } from 'firebase-functions/v2/scheduler'
import { adminDb } from '../admin.ts'
import { sweepVault as sweep } from './vault-sweep.ts'

export const sweepVault = onSchedule({ schedule: 'every 15 minutes', timeZone: 'UTC' }, async () => {
  const summary = await sweep(adminDb(), Date.now())
  logger.info('sweepVault: done', { ...summary })
})
