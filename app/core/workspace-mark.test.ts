import { describe, expect, it } from 'vitest'
import { parseWorkspaceMark, WORKSPACE_MARK_COOKIE, workspaceMarkCookie } from './workspace-mark'

describe('the workspace mark', () => {
  it('is written as a short word the edge reads back', () => {
    const cookie = workspaceMarkCookie(1_795_921_242_744)
    const [pair] = cookie.split(';')
    const [name, value] = pair!.split('=')
    expect(name).toBe(WORKSPACE_MARK_COOKIE)
    expect(parseWorkspaceMark(value)).toBe(value)
    expect(value).not.toBe(parseWorkspaceMark(workspaceMarkCookie(1_795_921_242_745).split(';')[0]!.split('=')[1]))
    expect(cookie).toContain('Path=/')
    expect(cookie).not.toMatch(/Max-Age|Expires/i)
  })

  it('counts anything else a browser sends as no mark', () => {
    for (const value of [undefined, null, '', 'ABC', 'a b', 'x'.repeat(17), '../', '%00']) expect(parseWorkspaceMark(value)).toBe('')
  })
})
