// The browser's mark of the last change it saw in the person's workspace (access, preferences,
// companies). The edge keeps a workspace it read for a few seconds, keyed by this mark (decision
// 0029): a change this browser saw, its own or an administrator's, reaches its next page load at once.

export const WORKSPACE_MARK_COOKIE = 'bulwark.workspaceMark'

/** The mark a Cookie header names; anything but a short base-36 word counts as none (''). */
export function parseWorkspaceMark(value: string | null | undefined): string {
  return value && /^[0-9a-z]{1,16}$/.test(value) ? value : ''
}

/**
 * The string to assign to `document.cookie` after a change. A cookie of the browser's session:
 * the mark only matters for the next few seconds of page loads.
 */
export const workspaceMarkCookie = (at: number = Date.now()): string => `${WORKSPACE_MARK_COOKIE}=${at.toString(36)}; Path=/; SameSite=Lax`
