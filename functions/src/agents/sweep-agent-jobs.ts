// sweepAgentJobs: every minute, jobs whose agent stopped answering go back to the queue (or fail
// after their last attempt), also at locations where no agent asks for work.
import '../options.ts'
import * as logger from 'firebase-functions/logger'
import { onSchedule } from 'firebase-functions/v2/scheduler'
import { adminDb } from '../admin.ts'
import { reclaimExpiredLeases } from './fleet-store.ts'

export const sweepAgentJobs = onSchedule({ schedule: 'every 1 minutes', timeZone: 'UTC' }, async () => {
  const moved = await reclaimExpiredLeases(adminDb(), Date.now())
  if (moved) logger.info('sweepAgentJobs: leases expired', { moved })
})
