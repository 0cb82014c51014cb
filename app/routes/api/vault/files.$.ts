import { createFileRoute } from '@tanstack/react-router'
import { serveVaultFiles } from '~/server/vault-files-context.server'

/** Sealed chunks of vault share-link files (app/server/vault-files.server.ts). */
export const Route = createFileRoute('/api/vault/files/$')({
  server: {
    handlers: {
      GET: ({ request }) => serveVaultFiles(request),
      PUT: ({ request }) => serveVaultFiles(request),
      DELETE: ({ request }) => serveVaultFiles(request),
    },
  },
})
