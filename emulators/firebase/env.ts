// How to run firebase-tools for the local stack: environment, argv, ports. Shared by
// `npm run emulators`, `npm run test:emulators`, the seed and the dev launcher.
import { existsSync, mkdirSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureFirestoreWrapperJar, type FirestoreWrapper } from './firestore-jar.ts'
import { findJava, type JavaInstall } from './java.ts'

export const PROJECT_ID = 'demo-sectest'
// IPv4 literal: the emulators do not listen on ::1, which `localhost` may resolve to.
export const EMULATOR_HOST = '127.0.0.1'
// Every port firebase.json opens, so the launcher can check them all before starting.
export const EMULATOR_PORTS = { auth: 9099, firestore: 8080, firestoreWebsocket: 9150, functions: 5001, hub: 4400, logging: 4500 } as const
export const EMULATORS = ['auth', 'firestore', 'functions'] as const
// The Firestore emulator is the only Java process. Left alone its heap may grow to a quarter of the
// machine's memory (the demo year took 5 GB) and keep it. The demo year's data is about 1.1 GB:
// 3 GB leaves room for a day of use, and what is free is handed back to the system within a minute
// of not being needed. Strings repeat across the demo documents (statuses, services, tags): kept once.
export const FIRESTORE_JVM_OPTIONS =
  '-Xmx3g -XX:MaxHeapFreeRatio=30 -XX:MinHeapFreeRatio=10 -XX:G1PeriodicGCInterval=60000 -XX:+UseStringDeduplication'

export const ROOT = path.resolve(fileURLToPath(new URL('../../', import.meta.url)))
export const LOCAL_DIR = path.join(ROOT, '.local')
export const LOG_DIR = path.join(LOCAL_DIR, 'logs')
export const FIREBASE_CONFIG_FILE = path.join(ROOT, 'firebase.json')
const EMULATOR_JARS_DIR = path.join(LOCAL_DIR, 'firebase-emulators')
const FIREBASE_BIN = path.join(ROOT, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js')
const TSC_BIN = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')

// Node 24 for firebase-tools and, through it, for the functions runtime: the functions emulator
// runs the host's Node when its major matches functions' `engines`, and Debian's Node is older.
export function nodeBinary(): string {
  if (process.versions.node.split('.')[0] === '24') return process.execPath
  const local = path.join(ROOT, 'node_modules', '.bin', 'node')
  return existsSync(local) ? realpathSync(local) : process.execPath
}

export interface FirebaseToolsSetup {
  env: NodeJS.ProcessEnv
  // firebase-tools writes its emulators' *-debug.log files into its working folder.
  cwd: string
  java: JavaInstall
  // Null when firebase-tools should download the Firestore emulator itself (no Cloud CLI here).
  firestoreWrapper: FirestoreWrapper | null
}

// Throws JavaNotFoundError (one readable line) when no Java 21+ exists.
export function firebaseToolsSetup(base: NodeJS.ProcessEnv = process.env): FirebaseToolsSetup {
  const java = findJava({ env: base })
  const firestoreWrapper = ensureFirestoreWrapperJar({ dir: EMULATOR_JARS_DIR, env: base })
  mkdirSync(LOG_DIR, { recursive: true })
  const configHome = path.join(LOCAL_DIR, 'config')
  mkdirSync(configHome, { recursive: true })

  const pathEntries = [
    path.join(java.home, 'bin'),
    path.dirname(nodeBinary()),
    path.join(ROOT, 'node_modules', '.bin'),
    ...(base.PATH ?? '').split(path.delimiter).filter(Boolean),
  ]
  const env: NodeJS.ProcessEnv = {
    ...base,
    PATH: [...new Set(pathEntries)].join(path.delimiter),
    JAVA_HOME: java.home,
    FIREBASE_DEBUG_PATH: path.join(LOG_DIR, 'firebase-debug.log'),
    // A private configstore: no login tokens, no usage-statistics consent, so nothing is sent.
    XDG_CONFIG_HOME: configHome,
    // CI skips the CLI's message-of-the-day fetch; the notifier variable skips the npm update check.
    CI: 'true',
    NO_UPDATE_NOTIFIER: '1',
    // google-auth-library would otherwise probe the GCE metadata server.
    METADATA_SERVER_DETECTION: 'none',
    // The functions emulator asks npm for the newest firebase-functions: answer from the cache.
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    // Experiments enabled in a developer's shell would change what starts (e.g. the UI snapshot).
    FIREBASE_CLI_EXPERIMENTS: '',
    GCLOUD_PROJECT: PROJECT_ID,
    // A developer's own options come last, so they win.
    JAVA_TOOL_OPTIONS: [FIRESTORE_JVM_OPTIONS, base.JAVA_TOOL_OPTIONS].filter(Boolean).join(' '),
  }
  if (firestoreWrapper) env.FIREBASE_EMULATORS_PATH = firestoreWrapper.dir
  return { env, cwd: LOG_DIR, java, firestoreWrapper }
}

function firebaseArgv(command: string, extra: readonly string[]): string[] {
  return [
    nodeBinary(),
    FIREBASE_BIN,
    command,
    '--only',
    EMULATORS.join(','),
    '--project',
    PROJECT_ID,
    // Absolute: firebase-tools runs from LOG_DIR and takes the project folder from this path.
    '--config',
    FIREBASE_CONFIG_FILE,
    '--non-interactive',
    ...extra,
  ]
}

/** `importDir`: an export of the emulators (emulators:export) to start from instead of nothing. */
export function emulatorsStartArgv(options: { importDir?: string } = {}): string[] {
  return firebaseArgv('emulators:start', options.importDir ? ['--import', options.importDir] : [])
}

// POSIX shell quoting, for the command line emulators:exec hands to a shell.
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

// `command` is run by a shell from the repository root once the emulators are up; the emulators
// stop when it exits, with its exit code. firebase-tools adds FIRESTORE_EMULATOR_HOST and friends.
export function emulatorsExecArgv(command: string): string[] {
  return firebaseArgv('emulators:exec', [`cd ${shellQuote(ROOT)} && ${command}`])
}

// For Admin SDK and client code talking to the running emulators from outside firebase-tools.
export function emulatorClientEnv(): Record<string, string> {
  return {
    GCLOUD_PROJECT: PROJECT_ID,
    // Without it the Admin SDK probes the GCE metadata server and warns when it is absent.
    METADATA_SERVER_DETECTION: 'none',
    FIRESTORE_EMULATOR_HOST: `${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}`,
    FIREBASE_AUTH_EMULATOR_HOST: `${EMULATOR_HOST}:${EMULATOR_PORTS.auth}`,
    FUNCTIONS_EMULATOR_HOST: `${EMULATOR_HOST}:${EMULATOR_PORTS.functions}`,
  }
}

// The functions emulator loads functions/lib, so this runs first; with watch, it keeps rebuilding
// and the emulator reloads the code on each change.
export function functionsBuildArgv(options: { watch?: boolean } = {}): string[] {
  const argv = [nodeBinary(), TSC_BIN, '-p', path.join(ROOT, 'functions', 'tsconfig.build.json')]
  if (options.watch) argv.push('--watch', '--preserveWatchOutput')
  return argv
}
