// Runs a command against freshly started emulators, then stops them:
//   node --experimental-strip-types emulators/firebase/exec.ts <command> [args...]
// The command runs from the repository root with FIRESTORE_EMULATOR_HOST and friends set; the exit
// code is the command's.
import { emulatorsExecArgv, shellQuote } from './env.ts'
import { prepareOrExit } from './prepare.ts'
import { runForeground } from './processes.ts'

const words = process.argv.slice(2)
if (words.length === 0) {
  console.error('usage: exec.ts <command> [args...]')
  process.exit(2)
}
const setup = prepareOrExit()
const code = await runForeground(emulatorsExecArgv(words.map(shellQuote).join(' ')), {
  cwd: setup.cwd,
  env: setup.env,
  stopWithParent: true,
})
process.exit(code)
