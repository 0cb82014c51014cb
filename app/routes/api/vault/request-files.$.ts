import { createFileRoute } from '@tanstack/react-router'
import { serveVaultFiles } from '~/server/vault-files-context.server'

/** Sealed chunks of files a client answered a vault request with (app/server/vault-files.server.ts). */
export const Route = createFileRoute('/api/vault/request-files/$')({
  server: {
    handlers: {
      GET: ({ request }) => serveVaultFiles(request),
      PUT: ({ request }) => serveVaultFiles(request),
      DELETE: ({ request }) => serveVaultFiles(request),
    },
  },
})
