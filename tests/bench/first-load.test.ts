import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { firstLoadJs } from './first-load'

describe('firstLoadJs', () => {
  let dir = ''
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('follows the scripts and preloads of the HTML through static imports, once each, not dynamic ones', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'first-load-'))
    mkdirSync(path.join(dir, 'assets'))
    const files: Record<string, string> = {
      'assets/entry.js': 'import{a as e}from"./shared.js";import"./side.js";const lazy=()=>import("./lazy.js");',
      'assets/shared.js': 'export const a=1;',
      'assets/side.js': 'import{a}from"./shared.js";console.log(a)',
      'assets/route.js': 'import{a}from"./shared.js";',
      'assets/lazy.js': 'export default 1',
    }
    for (const [name, code] of Object.entries(files)) writeFileSync(path.join(dir, name), code)
    const html =
      '<head><link rel="modulepreload" href="/assets/route.js"/><link rel="icon" href="/favicon.svg"/></head>' +
      '<body><script type="module" async="" src="/assets/entry.js"></script></body>'

    const result = firstLoadJs(html, dir)

    expect(result.files).toEqual(['assets/entry.js', 'assets/route.js', 'assets/shared.js', 'assets/side.js'])
    const expected = result.files.reduce((sum, f) => sum + gzipSync(Buffer.from(files[f]!), { level: 9 }).length, 0)
    expect(result.gzipBytes).toBe(expected)
  })
})
