import { cloudflare } from '@cloudflare/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig, type UserConfig } from 'vite'
import { DEV_SERVER_DENY } from './scripts/lib/dev-server-files.ts'
import { methodGuard } from './scripts/lib/method-guard.ts'

const port = Number(process.env.APP_PORT ?? 3000)

// wrangler (inside the Cloudflare plugin) stays offline and keeps its files in the project.
process.env.WRANGLER_SEND_METRICS ??= 'false'
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false'
process.env.WRANGLER_HIDE_BANNER ??= 'true'
process.env.WRANGLER_LOG_PATH ??= '.local/logs/wrangler'
process.env.XDG_CONFIG_HOME ??= '.local/config'
// The footer's "last updated": a release pipeline may set it (e.g. to the commit time); else the time of
// `vite build`. The dev server stamps nothing: its start is no release.
const config: UserConfig = {
  // A request's failure is the page's to show (its error page): Vite's overlay would cover the
  // product in every open tab. Build errors still show in the terminal and the browser console.
  server: { host: '127.0.0.1', port, strictPort: true, hmr: { overlay: false }, fs: { deny: DEV_SERVER_DENY } },
  preview: { host: '127.0.0.1', port, strictPort: true },
  resolve: { tsconfigPaths: true },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Every page loads the entry's static imports: one file instead of a few dozen small ones
            // (each file is compressed on its own, so many small ones cost more bytes and requests).
            codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
          },
        },
      },
    },
  },
  plugins: [
    methodGuard(),
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
}

export default defineConfig(({ command }) => {
  if (command === 'build') process.env.VITE_RELEASE_UPDATED_AT ??= new Date().toISOString()
  return config
})
