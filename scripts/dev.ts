// `npm run dev`: the whole local stack (Firebase emulators with demo data, the search emulator, the
// mail inbox and the app rendered in workerd), until Ctrl-C, which stops every process it started.
// The emulators start from the demo snapshot of the seed's current code (emulators/seed/snapshot.ts);
// without one, the seed writes the demo data and the snapshot is taken for the next start.
//   --app=dev|preview   vite dev server (default) or the production build served in workerd
//   --reseed            seed even when a snapshot of this seed exists (and take it again)
//   --quiet             only errors and the ready line (for test runs)
import { existsSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { formatDemoAccounts } from '../emulators/seed/demo-accounts.ts'
import {
  EMULATOR_HOST,
  EMULATOR_PORTS,
  emulatorClientEnv,
  firebaseToolsSetup,
  LOG_DIR,
  nodeBinary,
  ROOT,
} from '../emulators/firebase/env.ts'
import { JavaNotFoundError } from '../emulators/firebase/java.ts'
import { waitForEmulators, warmCallables } from '../emulators/firebase/ready.ts'
import { PortListenError } from '../emulators/local-service.ts'
import { startMailCatcher, type MailCatcher } from '../emulators/mail/mail-catcher.ts'
import { SearchEmulatorConfigError, searchEmulatorConfigFromEnv } from '../emulators/search/config.ts'
import { startSearchEmulator, type SearchEmulator } from '../emulators/search/search-emulator.ts'
import { assertPortFree, StackError, startService, waitForHttp, type Service } from './lib/services.ts'
import { sharedAdmin } from '../emulators/firebase/admin.ts'
import { issueDemoEnrolment } from '../emulators/seed/fleet.ts'
import { completeSnapshot, findSnapshot, fingerprintOf, seedInputs, snapshotsDir, writeSnapshot } from '../emulators/seed/snapshot.ts'

const { values: flags } = parseArgs({
  options: {
    app: { type: 'string', default: 'dev' },
    reseed: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
})
const appMode = flags.app === 'preview' ? 'preview' : 'dev'
const say = (line: string) => {
  if (!flags.quiet) console.log(line)
}

const appPort = Number(process.env.APP_PORT ?? 3000)
const mailSmtpPort = Number(process.env.MAIL_SMTP_PORT ?? 1025)
const mailHttpPort = Number(process.env.MAIL_HTTP_PORT ?? 1080)
const vulnPort = Number(process.env.VULN_APP_PORT ?? 8765)
const strip = ['--experimental-strip-types']
const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')

const services: Service[] = []
let mail: MailCatcher | undefined
let search: SearchEmulator | undefined
let stopping: Promise<void> | undefined

function stopAll(): Promise<void> {
  stopping ??= (async () => {
    // The app first (it talks to the rest), then the emulators, whose shutdown takes longest.
    for (const service of [...services].reverse()) {
      await service.stop(service.name === 'emulators' ? 'SIGINT' : 'SIGTERM', 30_000)
    }
    await Promise.all([mail?.close(), search?.close()])
  })()
  return stopping
}

async function preflight(searchPort: number): Promise<void> {
  const ports: [number, string, string][] = [
    [appPort, 'app', 'stop what uses it or set APP_PORT'],
    [searchPort, 'search emulator', 'stop what uses it or set SEARCH_PORT'],
    [mailSmtpPort, 'mail SMTP', 'stop what uses it or set MAIL_SMTP_PORT'],
    [mailHttpPort, 'mail inbox', 'stop what uses it or set MAIL_HTTP_PORT'],
    [vulnPort, 'vulnerable app', 'stop what uses it or set VULN_APP_PORT'],
    ...Object.entries(EMULATOR_PORTS).map(([name, port]): [number, string, string] => [
      port,
      `${name} emulator`,
      'stop what uses it (another `npm run dev` or `firebase emulators`?)',
    ]),
  ]
  for (const [port, what, hint] of ports) await assertPortFree(port, what, hint)
  if (appMode === 'preview' && !existsSync(path.join(ROOT, 'dist', 'server', 'wrangler.json'))) {
    throw new StackError('There is no build to preview: run `npm run build` first.')
  }
}

/** How long each part of the start took, printed once ready. */
const parts: { name: string; seconds: number; note: string }[] = []
const since = (started: number) => (performance.now() - started) / 1000

async function timed<T>(name: string, work: () => Promise<T>, note: (result: T) => string): Promise<T> {
  const started = performance.now()
  const result = await work()
  parts.push({ name, seconds: since(started), note: note(result) })
  return result
}

function formatParts(): string[] {
  const width = Math.max(...parts.map((part) => part.name.length))
  return parts.map(({ name, seconds, note }) => `  ${name.padEnd(width)}  ${seconds.toFixed(1).padStart(5)} s  ${note}`)
}

const count = (n: number) => n.toLocaleString('en-GB')

async function start(): Promise<void> {
  const startedAt = performance.now()
  const searchConfig = searchEmulatorConfigFromEnv()
  await preflight(searchConfig.port)
  const firebase = firebaseToolsSetup()

  mail = await startMailCatcher({ smtpPort: mailSmtpPort, httpPort: mailHttpPort })
  search = await startSearchEmulator(searchConfig)

  const snapshots = snapshotsDir()
  const fingerprint = fingerprintOf(seedInputs({ firestoreJar: firebase.firestoreWrapper?.target }))
  const snapshot = flags.reseed ? ({ kind: 'missing', dir: '' } as const) : findSnapshot(snapshots, fingerprint)
  const snapshotName = path.relative(ROOT, path.join(snapshots, fingerprint))

  // The app needs no emulator to start: it compiles beside them (the longest part of a start).
  say(appMode === 'dev' ? 'Starting the app (vite dev, SSR in workerd)…' : 'Serving the build in workerd…')
  const appStarted = performance.now()
  const app = startService('app', [nodeBinary(), vite, appMode === 'dev' ? 'dev' : 'preview'], {
    cwd: ROOT,
    env: { ...process.env, APP_PORT: String(appPort) },
    logFile: path.join(LOG_DIR, 'app.log'),
  })
  services.push(app)
  const appUrl = `http://127.0.0.1:${appPort}`
  const appReady = waitForHttp(`${appUrl}/`, 120_000, app.exited).then(
    () =>
      parts.push({
        name: 'App',
        seconds: since(appStarted),
        note: appMode === 'dev' ? 'vite dev, beside the emulators' : 'the build in workerd',
      }),
    () => {
      throw new StackError(`The app did not start: see ${path.join(LOG_DIR, 'app.log')}`)
    },
  )
  // Awaited below; until then a failure is kept, not thrown.
  appReady.catch(() => {})

  say(
    snapshot.kind === 'ready'
      ? `Starting the Firebase emulators from the demo snapshot ${snapshotName}…`
      : 'Starting the Firebase emulators…',
  )
  const emulators = startService(
    'emulators',
    [
      nodeBinary(),
      ...strip,
      'emulators/firebase/start.ts',
      // In development the functions are rebuilt on change and the emulator reloads them.
      ...(appMode === 'dev' ? [] : ['--no-watch']),
      ...(snapshot.kind === 'ready' ? ['--import', snapshot.dir] : []),
    ],
    {
      cwd: ROOT,
      env: process.env,
      logFile: path.join(LOG_DIR, 'emulators.log'),
    },
  )
  services.push(emulators)
  await timed(
    'Firebase emulators',
    () =>
      Promise.race([
        waitForEmulators({ timeoutMs: 120_000 }),
        emulators.exited.then((code) => {
          throw new StackError(`The Firebase emulators stopped (exit ${code}): see ${path.join(LOG_DIR, 'emulators.log')}`)
        }),
      ]),
    () => (snapshot.kind === 'ready' ? `Auth and Firestore from the demo snapshot ${snapshotName}` : 'empty'),
  )

  // The sign-in's two callables are started beside the demo data, so the first sign-in does not wait
  // for their code to load.
  const signInWarm = timed(
    'Functions',
    () => warmCallables(['sendSignInLink', 'handleSignIn']),
    () => 'the sign-in callables answer',
  )
  // Awaited below; until then a failure is kept, not thrown.
  signInWarm.catch(() => {})

  if (snapshot.kind === 'ready') {
    await timed(
      'Demo data',
      () => completeSnapshot(sharedAdmin().db, searchConfig, snapshot.manifest),
      (loaded) =>
        `search indexed from it (${count(loaded.findings)} findings, ${count(loaded.templates)} templates)` +
        (loaded.redated ? ', keys and audit history dated from today' : ''),
    )
  } else {
    say('Loading demo data…')
    await timed(
      'Demo data',
      async () => {
        const seed = startService('seed', [nodeBinary(), ...strip, 'emulators/seed/seed.ts'], {
          cwd: ROOT,
          env: { ...process.env, ...emulatorClientEnv() },
          logFile: path.join(LOG_DIR, 'seed.log'),
        })
        const seedCode = await seed.exited
        if (seedCode !== 0) throw new StackError(`Loading demo data failed: see ${path.join(LOG_DIR, 'seed.log')}`)
      },
      () => (flags.reseed ? 'seeded (--reseed)' : `seeded: no demo snapshot of this seed yet (${fingerprint})`),
    )
    say('Taking the demo snapshot…')
    await timed(
      'Demo snapshot',
      () => writeSnapshot(snapshots, fingerprint),
      (dir) => `written to ${path.relative(ROOT, dir)}: later starts load it`,
    )
  }

  await appReady
  await signInWarm.catch((error: unknown) => {
    throw new StackError(`${error instanceof Error ? error.message : String(error)}: see ${path.join(LOG_DIR, 'emulators.log')}`)
  })

  // The deliberately vulnerable app on loopback, and one demo agent at the Local location to scan it.
  const vulnerable = startService(
    'vulnerable-app',
    [nodeBinary(), ...strip, 'tests/fixtures/vulnerable-app/server.ts', '--port', String(vulnPort)],
    {
      cwd: ROOT,
      env: process.env,
      logFile: path.join(LOG_DIR, 'vulnerable-app.log'),
    },
  )
  services.push(vulnerable)
  const vulnUrl = `http://127.0.0.1:${vulnPort}/`
  const agentStarted = performance.now()
  await waitForHttp(vulnUrl, 30_000, vulnerable.exited)
  say('Enrolling the demo agent…')
  const agentState = path.join(ROOT, '.local', 'agent', 'state.json')
  const agentEnv = { ...process.env, BULWARK_AGENT_STATE: agentState, ...emulatorClientEnv() }
  const token = await issueDemoEnrolment(sharedAdmin().db)
  const enrol = startService(
    'agent-enrol',
    [nodeBinary(), ...strip, 'agent/src/main.ts', 'enrol', token, '--server', `${appUrl}/api/agents`],
    {
      cwd: ROOT,
      env: agentEnv,
      logFile: path.join(LOG_DIR, 'agent.log'),
    },
  )
  if ((await enrol.exited) !== 0) throw new StackError(`The demo agent could not enrol: see ${path.join(LOG_DIR, 'agent.log')}`)
  parts.push({ name: 'Demo agent', seconds: since(agentStarted), note: 'the vulnerable app up and the agent enrolled' })
  services.push(
    startService('agent', [nodeBinary(), ...strip, 'agent/src/main.ts', 'run'], {
      cwd: ROOT,
      env: agentEnv,
      logFile: path.join(LOG_DIR, 'agent-run.log'),
    }),
  )

  for (const service of services) {
    service.exited.then((code) => {
      if (stopping) return
      console.error(`${service.name} stopped unexpectedly (exit ${code}); stopping the rest. Logs: ${LOG_DIR}`)
      void stopAll().then(() => process.exit(1))
    })
  }

  // Printed even when quiet: the e2e run starts its tests on this line (playwright.config.ts).
  if (flags.quiet) console.log(`Ready in ${since(startedAt).toFixed(1)} s`)
  say(
    [
      '',
      `Ready in ${since(startedAt).toFixed(1)} s (Java ${firebase.java.version})`,
      ...formatParts(),
      '',
      `  App            ${appUrl}`,
      `  Mail inbox     ${mail.inboxUrl}   (SMTP ${mail.smtpUrl})`,
      `  Search         ${search.url}`,
      `  Vulnerable app ${vulnUrl}   (scanned by the demo agent at the Local location)`,
      `  Auth emulator  http://${EMULATOR_HOST}:${EMULATOR_PORTS.auth}`,
      `  Firestore      http://${EMULATOR_HOST}:${EMULATOR_PORTS.firestore}`,
      `  Functions      http://${EMULATOR_HOST}:${EMULATOR_PORTS.functions}`,
      `  Logs           ${LOG_DIR}`,
      '',
      'Demo accounts (sign in with the emailed link; mail arrives in the inbox above):',
      formatDemoAccounts(),
      '',
      'Ctrl-C stops everything.',
    ].join('\n'),
  )
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    say('\nStopping…')
    void stopAll().then(() => process.exit(0))
  })
}

try {
  await start()
} catch (error) {
  const oneLine =
    error instanceof StackError ||
    error instanceof JavaNotFoundError ||
    error instanceof PortListenError ||
    error instanceof SearchEmulatorConfigError
  console.error(oneLine ? `✖ ${(error as Error).message}` : error)
  await stopAll()
  process.exit(1)
}
