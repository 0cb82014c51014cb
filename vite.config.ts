import { cloudflare } from '@cloudflare/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { DEV_SERVER_DENY } from './scripts/lib/dev-server-files.ts'

const port = Number(process.env.APP_PORT ?? 3000)

// wrangler (inside the Cloudflare plugin) stays offline and keeps its files in the project.
process.env.WRANGLER_SEND_METRICS ??= 'false'
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false'
process.env.WRANGLER_HIDE_BANNER ??= 'true'
process.env.WRANGLER_LOG_PATH ??= '.local/logs/wrangler'
process.env.XDG_CONFIG_HOME ??= '.local/config'
// The footer's "last updated": a release pipeline may set it (e.g. to the commit time); else the time of
// `vite build`. The dev server stamps nothing: its start is no release.
if (process.argv.includes('build')) process.env.VITE_RELEASE_UPDATED_AT ??= new Date().toISOString()

export default defineConfig({
  server: { host: '127.0.0.1', port, strictPort: true, fs: { deny: DEV_SERVER_DENY } },
  preview: { host: '127.0.0.1', port, strictPort: true },
  resolve: { tsconfigPaths: true },
  plugins: [
    cloudflare({ viteEnvironment: { name: 'ssr' } }),
    tanstackStart({
      srcDirectory: 'app',
      // Server-only modules (*.server.*) imported from client code fail the build instead of leaking.
      importProtection: { behavior: 'error' },
    }),
    viteReact(),
    // Same class names on server and client, readable ones in development.
    babel({
      include: /[\\/]app[\\/].*\.tsx?(?:$|\?)/,
      plugins: [['babel-plugin-styled-components', { ssr: true, displayName: true, fileName: false, pure: true }]],
    }),
  ],
})
