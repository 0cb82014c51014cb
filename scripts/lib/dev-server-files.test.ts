import path from 'node:path'
import { isFileLoadingAllowed, resolveConfig } from 'vite'
import { describe, expect, it } from 'vitest'
import { DEV_SERVER_DENY } from './dev-server-files.ts'

const root = path.resolve(import.meta.dirname, '../..')

describe('the dev server’s file list', () => {
  it('serves the app’s sources but not the local logs, state or secrets', async () => {
    const config = await resolveConfig({ configFile: false, root, server: { fs: { deny: DEV_SERVER_DENY } } }, 'serve')
    const allowed = (file: string) => isFileLoadingAllowed(config, path.join(root, file))
    expect(allowed('app/router.tsx')).toBe(true)
    expect(allowed('.local/logs/functions.log')).toBe(false)
    expect(allowed('.local/logs/wrangler/wrangler.log')).toBe(false)
    expect(allowed('.wrangler/state/v3/r2/blobs/x')).toBe(false)
    expect(allowed('.dev.vars')).toBe(false)
    expect(allowed('functions/.env.demo-sectest')).toBe(false)
  })
})
