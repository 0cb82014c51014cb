import { createFileRoute } from '@tanstack/react-router'
import { servePhoto } from '~/server/photos-context.server'

/** People's photos at a served width (app/server/photos.server.ts). */
export const Route = createFileRoute('/api/photos')({
  server: { handlers: { GET: ({ request }) => servePhoto(request) } },
})
