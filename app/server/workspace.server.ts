import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { publicConfig } from './config.server'
import { firestoreReader } from './firestore-rest.server'
import { createCompanyHints, readWorkspace } from './workspace-read.server'

const companyHints = createCompanyHints()

/**
 * The workspace for the first render, read with the user's own token (the rules decide what the
 * Worker may see, as for the browser). A company the rules refuse is left out; null when the rules
 * no longer take the sign-in at all.
 */
export function loadWorkspace(session: Session, idToken: string): Promise<Workspace | null> {
  return readWorkspace(firestoreReader(publicConfig(), idToken), session, companyHints)
}
