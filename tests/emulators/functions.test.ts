import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { EMULATOR_HOST, EMULATOR_PORTS, ROOT } from '../../emulators/firebase/env.ts'

interface BackendInfo {
  directory: string
  functionTriggers: unknown[]
}

describe('functions emulator', () => {
  it('serves the codebase built from functions/', async () => {
    const host = process.env.FUNCTIONS_EMULATOR_HOST ?? `${EMULATOR_HOST}:${EMULATOR_PORTS.functions}`
    const response = await fetch(`http://${host}/backends`)
    expect(response.ok).toBe(true)
    const { backends } = (await response.json()) as { backends: BackendInfo[] }
    expect(backends.map((b) => path.resolve(b.directory))).toEqual([path.join(ROOT, 'functions')])
    expect(Array.isArray(backends[0]?.functionTriggers)).toBe(true)
  })
})
