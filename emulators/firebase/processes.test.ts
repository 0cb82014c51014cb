import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { descendants, runForeground } from './processes.ts'

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

// A child that starts a grandchild in its own process group (as firebase-tools starts Java) and
// exits on SIGTERM without stopping it.
const leaky = `
  const { spawn } = require('node:child_process')
  const grandchild = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' })
  process.on('SIGTERM', () => process.exit(0))
  setInterval(() => {}, 1000)
`

describe.runIf(process.platform === 'linux')('runForeground', () => {
  it('passes the exit code through', async () => {
    expect(await runForeground([process.execPath, '-e', 'process.exit(3)'])).toBe(3)
  })

  it('leaves nothing behind when stopped, even what the child forgot', async () => {
    const controller = new AbortController()
    const running = runForeground([process.execPath, '-e', leaky], { signal: controller.signal, graceMs: 5_000 })
    let grandchildren: number[] = []
    for (let i = 0; i < 100 && grandchildren.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      grandchildren = descendants(process.pid)
        .filter((p) => readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').startsWith('sleep'))
        .map((p) => p.pid)
    }
    expect(grandchildren).toHaveLength(1)
    controller.abort()
    expect(await running).toBe(0)
    for (const pid of grandchildren) expect(alive(pid)).toBe(false)
  })
})
