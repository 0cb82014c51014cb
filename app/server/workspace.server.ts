import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { publicConfig } from './config.server'
import { firestoreReader } from './firestore-rest.server'
import { createFirstPaintCache } from './first-paint-cache.server'
import type { RequestSession } from './session.server'
import { createCompanyHints, readWorkspace } from './workspace-read.server'

const companyHints = createCompanyHints()
const workspaces = createFirstPaintCache()

/**
 * The workspace as Firestore holds it now, read with the user's own token (the rules decide what
 * the Worker may see, as for the browser). A company the rules refuse is left out; null when the
 * rules no longer take the sign-in at all.
 */
export function readWorkspaceNow(session: Session, idToken: string): Promise<Workspace | null> {
  return readWorkspace(firestoreReader(publicConfig(), idToken), session, companyHints)
}

/**
 * The workspace for a page's first render: one read per sign-in, browser `mark` (of the last
 * change it saw) and revocation window in this isolate (decision 0029). A change the browser saw
 * comes with a new mark and is read at once; one it did not see reaches the first paint within
 * REVOCATION_TTL_MS, and the page's listeners as soon as it is live.
 */
export function loadWorkspace(current: RequestSession, mark: string): Promise<Workspace | null> {
  return workspaces.get({ uid: current.session.uid, issuedAt: current.issuedAt, what: `workspace ${mark}` }, () =>
    readWorkspaceNow(current.session, current.idToken),
  )
}
