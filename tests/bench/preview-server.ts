// The production build served in workerd (vite preview with the Cloudflare plugin), alone or with
// the whole local stack behind it, for benchmarks.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { LOG_DIR, nodeBinary, ROOT } from '../../emulators/firebase/env.ts'
import { startService, waitForHttp } from '../../scripts/lib/services.ts'

const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')

function buildApp(): void {
  const build = spawnSync(nodeBinary(), [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('vite build failed')
}

export interface PreviewOptions {
  /** Build first (the default); false serves the build already there. */
  build?: boolean
  /** The server's environment instead of this process's. */
  env?: NodeJS.ProcessEnv
}

/** The build alone, on `port`: enough for pages that need no data. */
export async function withPreviewServer<T>(run: (baseUrl: string) => Promise<T>, port = 3100, options: PreviewOptions = {}): Promise<T> {
  if (options.build !== false) buildApp()
  const server = startService('preview', [nodeBinary(), vite, 'preview'], {
    cwd: ROOT,
    env: { ...(options.env ?? process.env), APP_PORT: String(port) },
    logFile: path.join(LOG_DIR, 'bench-preview.log'),
  })
  const baseUrl = `http://127.0.0.1:${port}`
  try {
    await waitForHttp(`${baseUrl}/`, 60_000, server.exited)
    return await run(baseUrl)
  } finally {
    await server.stop()
  }
}

/**
 * The build with emulators, demo data and mail inbox, as `npm run dev --app=preview` starts them;
 * `appPort` moves the app off 3000 (for something that answers there in front of it).
 */
export async function withStack<T>(run: (baseUrl: string) => Promise<T>, appPort = 3000): Promise<T> {
  buildApp()
  const stack = startService('stack', [nodeBinary(), '--experimental-strip-types', 'scripts/dev.ts', '--app=preview', '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, APP_PORT: String(appPort) },
    logFile: path.join(LOG_DIR, 'bench-stack.log'),
  })
  const baseUrl = `http://127.0.0.1:${appPort}`
  try {
    await waitForHttp(`${baseUrl}/`, 180_000, stack.exited)
    return await run(baseUrl)
  } finally {
    await stack.stop('SIGINT', 30_000)
  }
}
