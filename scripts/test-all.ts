// `npm test`: every test stage, stopping at the first step that fails, then how long each stage
// took, so a run's log says where its time went.
//
// The emulator tests leave about 40 % of a 2-core machine idle (they wait on the emulators), so the
// stages that need no port and no emulator (checks and unit tests) run beside them. Their output is
// kept and printed whole when each ends; the emulator tests print as they go. The other stages
// start the stack on the same ports, so they run one at a time.
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

interface Step {
  /** Printed as it runs. */
  live: string
  /** Run beside it, their output printed when each ends. */
  beside?: string[]
}

const STEPS: Step[] = [
  { live: 'test:emulators', beside: ['typecheck', 'lint', 'format:check', 'test:unit'] },
  { live: 'test:stack' },
  { live: 'test:e2e' },
  { live: 'test:desktop' },
]

const logs = mkdtempSync(path.join(tmpdir(), 'npm-test-'))
const took: [stage: string, seconds: number, passed: boolean][] = []

function run(stage: string, live: boolean): Promise<void> {
  const started = performance.now()
  const log = live ? null : path.join(logs, `${stage.replace(/\W/g, '-')}.log`)
  const out = log ? openSync(log, 'w') : null
  const child = spawn('npm', ['run', stage], { stdio: out === null ? 'inherit' : ['ignore', out, out] })
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const passed = code === 0
      took.push([stage, (performance.now() - started) / 1000, passed])
      if (out !== null && log) {
        closeSync(out)
        process.stdout.write(`\n----- npm run ${stage} (${passed ? 'passed' : 'FAILED'}) -----\n${readFileSync(log, 'utf8')}-----\n`)
      }
      resolve()
    })
  })
}

for (const step of STEPS) {
  await Promise.all([run(step.live, true), ...(step.beside ?? []).map((stage) => run(stage, false))])
  if (!took.every(([, , passed]) => passed)) break
}
rmSync(logs, { recursive: true, force: true })

const stages = STEPS.flatMap((step) => [...(step.beside ?? []), step.live])
const width = Math.max(...stages.map((stage) => stage.length))
console.log('\nnpm test, stage by stage (the checks and unit tests ran beside the emulator tests):')
for (const [stage, seconds, passed] of took)
  console.log(`  ${stage.padEnd(width)}  ${seconds.toFixed(0).padStart(5)} s  ${passed ? 'passed' : 'FAILED'}`)
console.log(`  ${'total'.padEnd(width)}  ${(performance.now() / 1000).toFixed(0).padStart(5)} s`)
process.exit(took.every(([, , passed]) => passed) && took.length === stages.length ? 0 : 1)
