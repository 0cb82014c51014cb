import { useCallback, useSyncExternalStore } from 'react'

/**
 * The colour-scheme preference. The browser keeps it in localStorage; a cookie of the same name
 * mirrors it so the server can render `<html data-color-scheme>` and the first paint is right.
 * 'auto' follows the system (no attribute; the global style's media query decides).
 */
export type ColorSchemePreference = 'auto' | 'light' | 'dark'
export type ColorScheme = 'light' | 'dark'

export const COLOR_SCHEME_KEY = 'bulwark.colorScheme'
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60
const darkQuery = '(prefers-color-scheme: dark)'

export function parsePreference(value: unknown): ColorSchemePreference {
  return value === 'light' || value === 'dark' ? value : 'auto'
}

/** The preference in a Cookie header (or `document.cookie`); null when there is none. */
export function preferenceFromCookies(cookies: string | null | undefined): ColorSchemePreference | null {
  for (const pair of (cookies ?? '').split(';')) {
    const [name, value] = pair.split('=', 2).map((part) => part.trim())
    if (name === COLOR_SCHEME_KEY) return parsePreference(value)
  }
  return null
}

/** Not httpOnly: the page's own scripts write it. Sent with every page so the server sees it. */
export const cookieAttributes = `; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax`

/** The string to assign to `document.cookie`. */
export function preferenceCookie(preference: ColorSchemePreference): string {
  return `${COLOR_SCHEME_KEY}=${preference}${cookieAttributes}`
}

/** The value for `<html data-color-scheme>`: none for 'auto'. */
export function schemeAttribute(preference: ColorSchemePreference | null | undefined): ColorScheme | undefined {
  return preference === 'light' || preference === 'dark' ? preference : undefined
}

export function resolvedScheme(preference: ColorSchemePreference, prefersDark: boolean): ColorScheme {
  return preference === 'auto' ? (prefersDark ? 'dark' : 'light') : preference
}

/** mod+J: the opposite of what is on screen, so the first press from 'auto' always changes something. */
export function nextToggle(current: ColorSchemePreference, prefersDark: boolean): ColorScheme {
  return resolvedScheme(current, prefersDark) === 'dark' ? 'light' : 'dark'
}

const inBrowser = () => typeof window !== 'undefined' && typeof document !== 'undefined'

function storedPreference(): string | null {
  try {
    return window.localStorage.getItem(COLOR_SCHEME_KEY)
  } catch {
    // Storage can be blocked (privacy settings); the cookie still carries the choice.
    return null
  }
}

/** localStorage first, then the cookie; 'auto' when neither says anything. */
function savedPreference(): ColorSchemePreference {
  const stored = storedPreference()
  return stored !== null ? parsePreference(stored) : (preferenceFromCookies(document.cookie) ?? 'auto')
}

/**
 * The preference the page shows: its `<html data-color-scheme>`, which the server set from the
 * cookie and the head script from localStorage. Read from the document, not from storage: the
 * first read of localStorage or of the cookies is a round trip to the browser's own process, which
 * took up to 28 ms of a page's hydration at a phone's speed (4× CPU slowdown).
 */
export function readPreference(): ColorSchemePreference {
  return inBrowser() ? parsePreference(document.documentElement.dataset.colorScheme) : 'auto'
}

function applyToDocument(preference: ColorSchemePreference): void {
  const attribute = schemeAttribute(preference)
  if (attribute) document.documentElement.dataset.colorScheme = attribute
  else delete document.documentElement.dataset.colorScheme
}

const listeners = new Set<() => void>()

export function setPreference(preference: ColorSchemePreference): void {
  if (!inBrowser()) return
  try {
    window.localStorage.setItem(COLOR_SCHEME_KEY, preference)
  } catch {
    // Blocked storage: the cookie below is enough for this browser.
  }
  document.cookie = preferenceCookie(preference)
  applyToDocument(preference)
  for (const listener of listeners) listener()
}

function subscribePreference(onChange: () => void): () => void {
  listeners.add(onChange)
  // Another tab changed it: follow, so all tabs show the same scheme.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== COLOR_SCHEME_KEY && event.key !== null) return
    applyToDocument(savedPreference())
    onChange()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(onChange)
    window.removeEventListener('storage', onStorage)
  }
}

function subscribeSystem(onChange: () => void): () => void {
  const query = window.matchMedia(darkQuery)
  query.addEventListener('change', onChange)
  return () => query.removeEventListener('change', onChange)
}

const systemPrefersDark = () => window.matchMedia(darkQuery).matches
const serverPreference = (): ColorSchemePreference => 'auto'
const serverPrefersDark = () => false

export interface ColorSchemeState {
  preference: ColorSchemePreference
  /** What is on screen. */
  resolved: ColorScheme
  setPreference: (preference: ColorSchemePreference) => void
  toggle: () => void
}

/**
 * The preference and the scheme on screen. The server HTML and hydration see 'auto'/light (the
 * colours themselves come from CSS and are right from the start); the real values follow at once.
 */
export function useColorScheme(): ColorSchemeState {
  const preference = useSyncExternalStore(subscribePreference, readPreference, serverPreference)
  const prefersDark = useSyncExternalStore(subscribeSystem, systemPrefersDark, serverPrefersDark)
  const toggle = useCallback(() => setPreference(nextToggle(readPreference(), systemPrefersDark())), [])
  return { preference, resolved: resolvedScheme(preference, prefersDark), setPreference, toggle }
}
