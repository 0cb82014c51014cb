import { useEffect, useRef } from 'react'

/**
 * Keyboard shortcuts such as `mod+J`. `mod` is Command on macOS and Control elsewhere, so one
 * binding serves both. Modifiers match exactly: `mod+shift+J` does not fire `mod+J`.
 */
export interface Hotkey {
  /** Lower-case `KeyboardEvent.key`, e.g. 'j', 'escape', '/'. */
  key: string
  mod: boolean
  ctrl: boolean
  meta: boolean
  alt: boolean
  shift: boolean
}

export type Platform = 'mac' | 'other'

/** The parts of a keydown the matcher reads; a real `KeyboardEvent` has them all. */
export type HotkeyEvent = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>

const modifierNames: Record<string, keyof Omit<Hotkey, 'key'>> = {
  mod: 'mod',
  ctrl: 'ctrl',
  control: 'ctrl',
  meta: 'meta',
  cmd: 'meta',
  command: 'meta',
  alt: 'alt',
  option: 'alt',
  shift: 'shift',
}

/** 'mod+J' → { key: 'j', mod: true, … }. A trailing '+' is the plus key ('mod++'). */
export function parseHotkey(spec: string): Hotkey {
  const hotkey: Hotkey = { key: '', mod: false, ctrl: false, meta: false, alt: false, shift: false }
  const plusKey = spec.endsWith('++') || spec === '+'
  const parts = (plusKey ? spec.slice(0, -1) : spec).split('+').map((part) => part.trim().toLowerCase())
  const key = plusKey ? '+' : parts.pop()
  for (const part of parts) {
    if (!part) continue
    const modifier = modifierNames[part]
    if (!modifier) throw new Error(`Unknown modifier "${part}" in hotkey "${spec}"`)
    hotkey[modifier] = true
  }
  if (!key) throw new Error(`Hotkey "${spec}" has no key`)
  hotkey.key = key === 'esc' ? 'escape' : key === 'space' ? ' ' : key
  return hotkey
}

interface NavigatorLike {
  platform?: string
  userAgentData?: { platform?: string }
}

/** macOS and iOS (hardware keyboards) use Command for shortcuts. */
export function detectPlatform(nav: NavigatorLike | undefined = typeof navigator === 'undefined' ? undefined : navigator): Platform {
  const name = nav?.userAgentData?.platform || nav?.platform || ''
  return /mac|iphone|ipad|ipod/i.test(name) ? 'mac' : 'other'
}

function keyMatches(event: HotkeyEvent, key: string): boolean {
  if (event.key.toLowerCase() === key) return true
  // Option on macOS and non-Latin layouts change `key` ('∆' for Option+J); the physical key still says J.
  if (/^[a-z]$/.test(key)) return event.code === `Key${key.toUpperCase()}`
  if (/^[0-9]$/.test(key)) return event.code === `Digit${key}`
  return false
}

export function matchesHotkey(event: HotkeyEvent, hotkey: Hotkey | string, platform: Platform = detectPlatform()): boolean {
  const want = typeof hotkey === 'string' ? parseHotkey(hotkey) : hotkey
  const ctrl = want.ctrl || (want.mod && platform === 'other')
  const meta = want.meta || (want.mod && platform === 'mac')
  if (event.ctrlKey !== ctrl || event.metaKey !== meta || event.altKey !== want.alt) return false
  // Shifted symbols ('?', '+') already carry shift in `key`, so shift is only checked for other keys.
  const shiftInKey = want.key.length === 1 && !/[a-z0-9]/.test(want.key)
  if (!shiftInKey && event.shiftKey !== want.shift) return false
  return keyMatches(event, want.key)
}

const nonTextInputs = new Set(['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit'])

interface TargetLike {
  tagName?: string
  type?: string
  isContentEditable?: boolean
}

/** Keys typed into a field belong to the field, never to a shortcut. */
export function isTypingTarget(target: EventTarget | TargetLike | null | undefined): boolean {
  if (!target || typeof target !== 'object') return false
  const element = target as TargetLike
  if (element.isContentEditable) return true
  const tag = element.tagName?.toLowerCase()
  if (tag === 'textarea' || tag === 'select') return true
  if (tag === 'input') return !nonTextInputs.has((element.type ?? 'text').toLowerCase())
  return false
}

/** 'mod+J' as the user sees it: '⌘J' on macOS, 'Ctrl+J' elsewhere. */
export function formatHotkey(hotkey: Hotkey | string, platform: Platform = detectPlatform()): string {
  const h = typeof hotkey === 'string' ? parseHotkey(hotkey) : hotkey
  const key = h.key === ' ' ? 'Space' : h.key.length === 1 ? h.key.toUpperCase() : h.key[0]!.toUpperCase() + h.key.slice(1)
  if (platform === 'mac') {
    return `${h.ctrl ? '⌃' : ''}${h.alt ? '⌥' : ''}${h.shift ? '⇧' : ''}${h.mod || h.meta ? '⌘' : ''}${key}`
  }
  const parts = [h.mod || h.ctrl ? 'Ctrl' : '', h.meta ? 'Meta' : '', h.alt ? 'Alt' : '', h.shift ? 'Shift' : '', key]
  return parts.filter(Boolean).join('+')
}

export interface HotkeyBinding {
  keys: string
  run: (event: KeyboardEvent) => void
}

type KeydownLike = HotkeyEvent & Pick<KeyboardEvent, 'repeat' | 'isComposing' | 'defaultPrevented' | 'target' | 'preventDefault'>

/**
 * The keydown listener behind `useHotkeys`: ignored while typing and on auto-repeat, so holding a
 * key toggles once. Returns whether a binding ran.
 */
export function hotkeyHandler(bindings: () => readonly HotkeyBinding[], platform: Platform) {
  return (event: KeydownLike): boolean => {
    if (event.repeat || event.isComposing || event.defaultPrevented || isTypingTarget(event.target)) return false
    const binding = bindings().find((b) => matchesHotkey(event, parseHotkey(b.keys), platform))
    if (!binding) return false
    event.preventDefault()
    binding.run(event as KeyboardEvent)
    return true
  }
}

/** Window-wide shortcuts, e.g. `useHotkeys([{ keys: 'mod+J', run: toggle }])`. */
export function useHotkeys(bindings: readonly HotkeyBinding[]): void {
  // Latest bindings without re-subscribing on every render.
  const current = useRef(bindings)
  useEffect(() => {
    current.current = bindings
  })
  useEffect(() => {
    const onKeyDown = hotkeyHandler(() => current.current, detectPlatform())
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
}
