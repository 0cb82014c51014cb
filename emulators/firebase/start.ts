// `npm run emulators`: the Auth, Firestore and Functions emulators in the foreground, with the
// functions rebuilt on change. Ctrl-C stops all of them. `--no-watch` builds the functions once;
// `--import <dir>` starts from an export of the emulators (the dev launcher's demo snapshot).
import { spawn, type ChildProcess } from 'node:child_process'
import { parseArgs } from 'node:util'
import { EMULATOR_HOST, EMULATOR_PORTS, emulatorsStartArgv, functionsBuildArgv, LOG_DIR } from './env.ts'
import { prepareOrExit } from './prepare.ts'
import { runForeground } from './processes.ts'

const { values: flags } = parseArgs({
  options: { 'no-watch': { type: 'boolean', default: false }, import: { type: 'string' } },
})
const watch = !flags['no-watch']
// With watch, the watcher's first build is the build: one compile instead of two before the emulators load them.
const setup = prepareOrExit({ build: !watch })
console.log(`Java ${setup.java.version} from ${setup.java.home}`)
console.log(
  setup.firestoreWrapper
    ? `Firestore emulator: ${setup.firestoreWrapper.target} (through ${setup.firestoreWrapper.jar})`
    : 'Firestore emulator: no Cloud CLI component found, firebase-tools downloads its own',
)
console.log(`Logs: ${LOG_DIR}`)

// Resolves once the watcher's first build is done: with the number of errors it found.
function firstBuild(watcher: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let pending = ''
    let found: number | undefined
    watcher.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk)
      if (found !== undefined) return
      pending += chunk.toString()
      const match = /Found (\d+) errors?\. Watching for file changes/.exec(pending)
      if (match) resolve((found = Number(match[1])))
    })
    watcher.once('exit', (code) => reject(new Error(`The functions build stopped (exit ${code})`)))
  })
}

const [watchCommand, ...watchArgs] = functionsBuildArgv({ watch: true })
const watcher = watch ? spawn(watchCommand as string, watchArgs, { stdio: ['ignore', 'pipe', 'inherit'] }) : null
const errors = watcher ? await firstBuild(watcher).catch(() => -1) : 0
if (errors !== 0) {
  console.error('Building functions/ failed (see above); the emulators were not started.')
  watcher?.kill('SIGTERM')
  process.exit(1)
}

console.log(
  `Starting emulators: auth ${EMULATOR_HOST}:${EMULATOR_PORTS.auth}, firestore ${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}, ` +
    `functions ${EMULATOR_HOST}:${EMULATOR_PORTS.functions}` +
    (flags.import ? `, from ${flags.import}` : ''),
)
const code = await runForeground(emulatorsStartArgv({ importDir: flags.import }), { cwd: setup.cwd, env: setup.env, stopWithParent: true })
watcher?.kill('SIGTERM')
process.exit(code)
