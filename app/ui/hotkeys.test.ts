import { describe, expect, it, vi } from 'vitest'
import { detectPlatform, formatHotkey, hotkeyHandler, isTypingTarget, matchesHotkey, parseHotkey, type HotkeyEvent } from './hotkeys'

const key = (k: string, mods: Partial<HotkeyEvent> = {}): HotkeyEvent => ({
  key: k,
  code: /^[a-z]$/i.test(k) ? `Key${k.toUpperCase()}` : '',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
})

describe('parseHotkey', () => {
  it('reads modifiers and a lower-case key', () => {
    expect(parseHotkey('mod+J')).toEqual({ key: 'j', mod: true, ctrl: false, meta: false, alt: false, shift: false })
    expect(parseHotkey('Ctrl + Shift + k')).toMatchObject({ key: 'k', ctrl: true, shift: true, mod: false })
    expect(parseHotkey('cmd+alt+1')).toMatchObject({ key: '1', meta: true, alt: true })
  })

  it('knows named and plus keys', () => {
    expect(parseHotkey('esc').key).toBe('escape')
    expect(parseHotkey('mod+space').key).toBe(' ')
    expect(parseHotkey('mod++')).toMatchObject({ key: '+', mod: true })
  })

  it('rejects unknown modifiers and missing keys', () => {
    expect(() => parseHotkey('hyper+J')).toThrow(/hyper/)
    expect(() => parseHotkey('mod+')).toThrow(/no key/)
  })
})

describe('detectPlatform', () => {
  it('prefers userAgentData and falls back to navigator.platform', () => {
    expect(detectPlatform({ userAgentData: { platform: 'macOS' }, platform: 'Linux x86_64' })).toBe('mac')
    expect(detectPlatform({ platform: 'MacIntel' })).toBe('mac')
    expect(detectPlatform({ platform: 'iPad' })).toBe('mac')
    expect(detectPlatform({ userAgentData: { platform: 'Windows' } })).toBe('other')
    expect(detectPlatform({ platform: 'Linux x86_64' })).toBe('other')
    expect(detectPlatform(undefined)).toBe('other')
  })
})

describe('matchesHotkey', () => {
  it('takes mod as Command on macOS and Control elsewhere', () => {
    expect(matchesHotkey(key('j', { metaKey: true }), 'mod+J', 'mac')).toBe(true)
    expect(matchesHotkey(key('j', { ctrlKey: true }), 'mod+J', 'mac')).toBe(false)
    expect(matchesHotkey(key('j', { ctrlKey: true }), 'mod+J', 'other')).toBe(true)
    expect(matchesHotkey(key('j', { metaKey: true }), 'mod+J', 'other')).toBe(false)
  })

  it('needs modifiers that are not asked for to be up', () => {
    expect(matchesHotkey(key('J', { ctrlKey: true, shiftKey: true }), 'mod+J', 'other')).toBe(false)
    expect(matchesHotkey(key('j', { ctrlKey: true, altKey: true }), 'mod+J', 'other')).toBe(false)
    expect(matchesHotkey(key('j', { ctrlKey: true, metaKey: true }), 'mod+J', 'other')).toBe(false)
    expect(matchesHotkey(key('j'), 'mod+J', 'other')).toBe(false)
    expect(matchesHotkey(key('J', { ctrlKey: true, shiftKey: true }), 'mod+shift+J', 'other')).toBe(true)
  })

  it('matches the physical key when Option or the layout changes the character', () => {
    expect(matchesHotkey({ ...key('∆', { metaKey: true, altKey: true }), code: 'KeyJ' }, 'mod+alt+J', 'mac')).toBe(true)
    expect(matchesHotkey({ ...key('о', { ctrlKey: true }), code: 'KeyJ' }, 'mod+J', 'other')).toBe(true)
    expect(matchesHotkey({ ...key('k', { ctrlKey: true }), code: 'KeyK' }, 'mod+J', 'other')).toBe(false)
  })

  it('leaves shift to the character for symbols', () => {
    expect(matchesHotkey(key('?', { shiftKey: true }), '?', 'other')).toBe(true)
    expect(matchesHotkey(key('escape'), 'esc', 'other')).toBe(true)
  })
})

describe('isTypingTarget', () => {
  it('is true for text fields, text areas, selects and editable content', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true)
    expect(isTypingTarget({ tagName: 'INPUT', type: 'email' })).toBe(true)
    expect(isTypingTarget({ tagName: 'INPUT', type: 'search' })).toBe(true)
    expect(isTypingTarget({ tagName: 'INPUT' })).toBe(true)
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true)
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true)
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true)
  })

  it('is false for buttons, check boxes and the page', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false)
    expect(isTypingTarget({ tagName: 'INPUT', type: 'submit' })).toBe(false)
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false)
    expect(isTypingTarget({ tagName: 'BODY', isContentEditable: false })).toBe(false)
    expect(isTypingTarget(null)).toBe(false)
  })
})

describe('hotkeyHandler', () => {
  const keydown = (k: string, extra: Record<string, unknown> = {}) => ({
    ...key(k, { ctrlKey: true }),
    repeat: false,
    isComposing: false,
    defaultPrevented: false,
    target: { tagName: 'BODY' } as unknown as EventTarget,
    preventDefault: vi.fn(),
    ...extra,
  })

  it('runs the matching binding and prevents the browser default', () => {
    const toggle = vi.fn()
    const help = vi.fn()
    const handle = hotkeyHandler(
      () => [
        { keys: 'mod+H', run: help },
        { keys: 'mod+J', run: toggle },
      ],
      'other',
    )
    const event = keydown('j')
    expect(handle(event)).toBe(true)
    expect(toggle).toHaveBeenCalledOnce()
    expect(help).not.toHaveBeenCalled()
    expect(event.preventDefault).toHaveBeenCalledOnce()
  })

  it('ignores typing, auto-repeat and keys nobody bound', () => {
    const run = vi.fn()
    const handle = hotkeyHandler(() => [{ keys: 'mod+J', run }], 'other')
    const typing = keydown('j', { target: { tagName: 'INPUT', type: 'text' } })
    expect(handle(typing)).toBe(false)
    expect(handle(keydown('j', { repeat: true }))).toBe(false)
    const other = keydown('k')
    expect(handle(other)).toBe(false)
    expect(run).not.toHaveBeenCalled()
    expect(typing.preventDefault).not.toHaveBeenCalled()
    expect(other.preventDefault).not.toHaveBeenCalled()
  })
})

describe('formatHotkey', () => {
  it('shows the platform key', () => {
    expect(formatHotkey('mod+J', 'mac')).toBe('⌘J')
    expect(formatHotkey('mod+shift+J', 'mac')).toBe('⇧⌘J')
    expect(formatHotkey('mod+J', 'other')).toBe('Ctrl+J')
    expect(formatHotkey('esc', 'other')).toBe('Escape')
  })
})
