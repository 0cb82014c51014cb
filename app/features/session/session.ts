/** The signed-in person as the app sees them: who they are and what they may open. */
export interface Session {
  uid: string
  email: string
  userType: 'client' | 'analyst'
  accessLevel: number
}

/** What every route can read from the router context. */
export interface RouterContext {
  /** null when nobody is signed in. */
  session: Session | null
}
