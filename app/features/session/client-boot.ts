import type { PublicConfig, RouterContext, Session } from './session'

type BootState = { session: Session | null; firebase: PublicConfig }

/**
 * The browser's copy of the root context. The server renders with the session from the cookies;
 * the browser starts from that and follows sign-in, sign-out and token changes afterwards.
 */
let state: BootState | undefined

export const clientBoot = {
  /** Called with the server's context as the app hydrates; later calls keep the first. */
  init(context: RouterContext): void {
    if (!state && context.firebase) state = { session: context.session, firebase: context.firebase }
  },
  current(): BootState {
    if (!state) throw new Error('The root context is read before the app hydrated')
    return state
  },
  setSession(session: Session | null): void {
    if (state) state = { ...state, session }
  },
}
