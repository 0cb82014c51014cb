import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { emulatorsExecArgv, emulatorsStartArgv, PROJECT_ID, ROOT, shellQuote } from './env.ts'

describe('shellQuote', () => {
  it('leaves plain words alone and quotes the rest so the shell gives them back unchanged', () => {
    expect(shellQuote('vitest.emulators.config.ts')).toBe('vitest.emulators.config.ts')
    for (const word of ["it's", 'two words', '$HOME', 'a"b', '*', '']) {
      const echoed = spawnSync('sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' }).stdout
      expect(echoed).toBe(word)
    }
  })
})

describe('firebase-tools argv', () => {
  it('starts exactly the three emulators of the demo project with the repository config', () => {
    const argv = emulatorsStartArgv()
    expect(argv[1]).toBe(path.join(ROOT, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js'))
    expect(argv.slice(2, 7)).toEqual(['emulators:start', '--only', 'auth,firestore,functions', '--project', PROJECT_ID])
    expect(argv[argv.indexOf('--config') + 1]).toBe(path.join(ROOT, 'firebase.json'))
    expect(PROJECT_ID.startsWith('demo-')).toBe(true)
  })

  it('starts from an export when given one', () => {
    const argv = emulatorsStartArgv({ importDir: '/tmp/snapshot' })
    expect(argv[argv.indexOf('--import') + 1]).toBe('/tmp/snapshot')
    expect(emulatorsStartArgv()).not.toContain('--import')
  })

  it('runs an exec command from the repository root', () => {
    const argv = emulatorsExecArgv('vitest run')
    expect(argv[2]).toBe('emulators:exec')
    expect(argv.at(-1)).toBe(`cd ${shellQuote(ROOT)} && vitest run`)
  })
})
