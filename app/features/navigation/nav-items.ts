import type { Session } from '~/features/session/session'
import { sitePage } from '~/domain/site-map'

export interface NavItem {
  to: string
  label: string
}

/** The top-level areas, in menu order. */
const areaPaths = ['/', '/reports', '/templates', '/analyst', '/admin'] as const

/**
 * What the main navigation offers. Signed out, only Home: every other area needs a signed-in user
 * (which of them a person may open is decided per access level).
 */
export function navItems(session: Session | null): NavItem[] {
  return areaPaths
    .map((path) => sitePage(path))
    .filter((page) => !page.signIn || session !== null)
    .map((page) => ({ to: page.path, label: page.title }))
}
