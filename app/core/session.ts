import type { UserType } from '#domain/access.ts'
import type { Workspace } from './workspace'

/** The signed-in person as the app sees them: who they are and what they may open. */
export interface Session {
  uid: string
  email: string
  userType: UserType
  /** 0 until the first sign-in has copied the user's access into their token. */
  accessLevel: number
}

/** What every route can read from the router context. */
export interface RouterContext {
  /** null when nobody is signed in. */
  session: Session | null
  /** How the browser reaches Firebase; absent only before the root route has loaded. */
  firebase?: PublicConfig
  /** The signed-in user's access and companies; null when nobody is signed in. */
  workspace?: Workspace | null
  /** The `iat` (seconds) of the ID token the edge holds for this session; null when nobody is signed in. */
  tokenIssuedAt?: number | null
}

/** What the browser needs to talk to Firebase; nothing secret. */
export interface PublicConfig {
  projectId: string
  apiKey: string
  authDomain: string
  /** host:port of each emulator, for local runs only. */
  emulators: { auth: string; firestore?: string; functions?: string } | null
  /** The primary colour of each scheme when the deployment sets one (checked #rrggbb values). */
  brandColors?: { light: string | null; dark: string | null }
}
