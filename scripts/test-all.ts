// `npm test`: every test stage, stopping at the first step that fails, then how long each stage
// took, so a run's log says where its time went.
//
// The emulator tests leave about 40 % of a 2-core machine idle (they wait on the emulators), so the
// stages that need no port and no emulator (checks and unit tests) run beside them. Their output is
// kept and printed whole when each ends; the emulator tests print as they go. The other stages
// start the stack on the same ports, so they run one at a time.
import { spawn } from 'node:child_process'

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

const took: [stage: string, seconds: number, passed: boolean][] = []

function run(stage: string, live: boolean): Promise<void> {
  const started = performance.now()
  const child = spawn('npm', ['run', stage], { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] })
  const output: Buffer[] = []
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk))
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk))
  return new Promise((resolve) => {
    // 'close', not 'exit': the kept output is complete only once its pipes are.
    child.on('close', (code) => {
      const passed = code === 0
      took.push([stage, (performance.now() - started) / 1000, passed])
      if (!live) process.stdout.write(`\n----- npm run ${stage} (${passed ? 'passed' : 'FAILED'}) -----\n${Buffer.concat(output)}-----\n`)
      resolve()
    })
  })
}

for (const step of STEPS) {
  await Promise.all([run(step.live, true), ...(step.beside ?? []).map((stage) => run(stage, false))])
  if (!took.every(([, , passed]) => passed)) break
}

const stages = STEPS.flatMap((step) => [...(step.beside ?? []), step.live])
const width = Math.max(...stages.map((stage) => stage.length))
console.log('\nnpm test, stage by stage (the checks and unit tests ran beside the emulator tests):')
for (const [stage, seconds, passed] of took)
  console.log(`  ${stage.padEnd(width)}  ${seconds.toFixed(0).padStart(5)} s  ${passed ? 'passed' : 'FAILED'}`)
console.log(`  ${'total'.padEnd(width)}  ${(performance.now() / 1000).toFixed(0).padStart(5)} s`)
process.exit(took.every(([, , passed]) => passed) && took.length === stages.length ? 0 : 1)
