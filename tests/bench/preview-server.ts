// The production build served in workerd (vite preview with the Cloudflare plugin), for benchmarks.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { LOG_DIR, nodeBinary, ROOT } from '../../emulators/firebase/env.ts'
import { startService, waitForHttp } from '../../scripts/lib/services.ts'

const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')
export async function withPreviewServer<T>(run: (baseUrl: string) => Promise<T>, port = 3100): Promise<T> {
  const build = spawnSync(nodeBinary(), [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('vite build failed')
  const server = startService('preview', [nodeBinary(), vite, 'preview'], {
    cwd: ROOT,
    env: { ...process.env, APP_PORT: String(port) },
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
