/** The address a sign-in link was requested for, kept in this browser until the link is used. */
const KEY = 'emailForSignIn'

export const emailForSignIn = {
  get: (): string | null => window.localStorage.getItem(KEY),
  set: (email: string) => window.localStorage.setItem(KEY, email),
  clear: () => window.localStorage.removeItem(KEY),
}
