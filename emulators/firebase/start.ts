// `npm run emulators`: the Auth, Firestore and Functions emulators in the foreground, with the
// functions rebuilt on change. Ctrl-C stops all of them. `--no-watch` builds the functions once.
import { spawn } from 'node:child_process'
import { EMULATOR_HOST, EMULATOR_PORTS, emulatorsStartArgv, functionsBuildArgv, LOG_DIR } from './env.ts'
import { prepareOrExit } from './prepare.ts'
import { runForeground } from './processes.ts'

const setup = prepareOrExit()
console.log(`Java ${setup.java.version} from ${setup.java.home}`)
console.log(
  setup.firestoreWrapper
    ? `Firestore emulator: ${setup.firestoreWrapper.target} (through ${setup.firestoreWrapper.jar})`
    : 'Firestore emulator: no Cloud CLI component found, firebase-tools downloads its own',
)
console.log(`Logs: ${LOG_DIR}`)

const [watchCommand, ...watchArgs] = functionsBuildArgv({ watch: true })
const watcher = process.argv.includes('--no-watch')
  ? null
  : spawn(watchCommand as string, watchArgs, { stdio: ['ignore', 'inherit', 'inherit'] })

console.log(
  `Starting emulators: auth ${EMULATOR_HOST}:${EMULATOR_PORTS.auth}, firestore ${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}, ` +
    `functions ${EMULATOR_HOST}:${EMULATOR_PORTS.functions}`,
)
const code = await runForeground(emulatorsStartArgv(), { cwd: setup.cwd, env: setup.env, stopWithParent: true })
watcher?.kill('SIGTERM')
process.exit(code)
