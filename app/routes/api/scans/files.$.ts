import { createFileRoute } from '@tanstack/react-router'
import { serveScanFiles } from '~/server/scan-files-context.server'

/** Raw scanner files of imported scans (app/server/scan-files.server.ts). */
export const Route = createFileRoute('/api/scans/files/$')({
  server: {
    handlers: {
      GET: ({ request }) => serveScanFiles(request),
      HEAD: ({ request }) => serveScanFiles(request),
      PUT: ({ request }) => serveScanFiles(request),
    },
  },
})
