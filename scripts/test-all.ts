// `npm test`: every test stage in turn, stopping at the first that fails, then how long each took,
// so a run's log says where its time went.
import { spawnSync } from 'node:child_process'

const STAGES = ['typecheck', 'lint', 'format:check', 'test:unit', 'test:emulators', 'test:stack', 'test:e2e', 'test:desktop']

const took: [stage: string, seconds: number, passed: boolean][] = []
for (const stage of STAGES) {
  const started = performance.now()
  const { status } = spawnSync('npm', ['run', stage], { stdio: 'inherit' })
  took.push([stage, (performance.now() - started) / 1000, status === 0])
  if (status !== 0) break
}

const width = Math.max(...STAGES.map((stage) => stage.length))
console.log('\nnpm test, stage by stage:')
for (const [stage, seconds, passed] of took)
  console.log(`  ${stage.padEnd(width)}  ${seconds.toFixed(0).padStart(5)} s  ${passed ? 'passed' : 'FAILED'}`)
const total = took.reduce((sum, [, seconds]) => sum + seconds, 0)
console.log(`  ${'total'.padEnd(width)}  ${total.toFixed(0).padStart(5)} s`)
process.exit(took.every(([, , passed]) => passed) && took.length === STAGES.length ? 0 : 1)
