// What `start.ts` and `exec.ts` do before firebase-tools runs: find Java, place the Firestore
// wrapper jar, build the functions. Failures end the process with one readable line.
import { spawnSync } from 'node:child_process'
import { firebaseToolsSetup, functionsBuildArgv, type FirebaseToolsSetup } from './env.ts'
import { JavaNotFoundError } from './java.ts'

function fail(message: string): never {
  console.error(message)
  process.exit(1)
}

/** `build: false` leaves the build to the caller (a watcher that builds first). */
export function prepareOrExit(options: { build?: boolean } = {}): FirebaseToolsSetup {
  let setup: FirebaseToolsSetup
  try {
    setup = firebaseToolsSetup()
  } catch (error) {
    if (error instanceof JavaNotFoundError) fail(error.message)
    throw error
  }
  if (options.build === false) return setup
  const [command, ...args] = functionsBuildArgv()
  const build = spawnSync(command as string, args, { stdio: 'inherit' })
  if (build.status !== 0) fail('Building functions/ failed (see above); the emulators were not started.')
  return setup
}
