import { useRouter } from '@tanstack/react-router'
import { useLazySubscription } from './lazy-subscription'
import { clientBoot } from './client-boot'
import type { Session } from './session'
import type { Workspace } from './workspace'
import { workspaceMarkCookie } from './workspace-mark'

/**
 * Follows the signed-in user's workspace live: a flag flip, a new level or a new company changes
 * navigation and pages at once, without a reload, and the browser's workspace mark, so the next
 * page load renders the change too.
 */
export function WorkspaceSync({ session, seed }: { session: Session; seed: Workspace | null }) {
  const router = useRouter()
  useLazySubscription(
    () =>
      Promise.all([import('./workspace-live'), import('./session-live')]).then(([live, upkeep]) =>
        live.watchWorkspace(session, seed, {
          shown: () => clientBoot.current().workspace,
          onChange: (workspace) => {
            // The edge's copy of this workspace is out of date: the next page load reads it afresh.
            document.cookie = workspaceMarkCookie()
            clientBoot.setWorkspace(workspace)
            void router.invalidate()
          },
          onDenied: async () => {
            await upkeep.signOutEverywhere()
            await router.invalidate()
          },
        }),
      ),
    // One watch per signed-in user; the seed only matters when it starts.
    // (A new seed for the same user is the watch's own output coming back.)
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session.uid, router],
  )
  return null
}
