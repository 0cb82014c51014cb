import type { Workspace } from './workspace'
import type { PublicConfig, RouterContext, Session } from './session'

export type RootContext = {
  session: Session | null
  firebase: PublicConfig
  workspace: Workspace | null
  /** The `iat` (seconds) of the ID token the edge rendered the page with; null when signed out. */
  tokenIssuedAt: number | null
}

/**
 * The browser's copy of the root context. The server renders with the session and workspace it
 * read; the browser starts from that and follows sign-in, sign-out and live data afterwards.
 */
let state: RootContext | undefined
let hydrated: () => void = () => {}
const hydration = new Promise<void>((resolve) => (hydrated = resolve))

export const clientBoot = {
  /** Called with the server's context as the app hydrates; later calls keep the first. */
  init(context: RouterContext): void {
    // Only in the browser: on the server this module lives as long as the isolate, and would keep
    // the first request's session for every later one.
    if (typeof window === 'undefined' || state || !context.firebase) return
    state = {
      session: context.session,
      firebase: context.firebase,
      workspace: context.workspace ?? null,
      tokenIssuedAt: context.tokenIssuedAt ?? null,
    }
    hydrated()
  },
  /** The root context once the app has hydrated: a navigation started earlier waits for it. */
  async ready(): Promise<RootContext> {
    await hydration
    return clientBoot.current()
  },
  current(): RootContext {
    if (!state) throw new Error('The root context is read before the app hydrated')
    return state
  },
  setSession(session: Session | null): void {
    if (!state) return
    // A different person (or nobody) has a different workspace (the live data reloads it), and a
    // token the edge did not render the page with.
    const samePerson = session?.uid === state.session?.uid
    state = { ...state, session, workspace: samePerson ? state.workspace : null, tokenIssuedAt: samePerson ? state.tokenIssuedAt : null }
  },
  setWorkspace(workspace: Workspace | null): void {
    if (state) state = { ...state, workspace }
  },
}
