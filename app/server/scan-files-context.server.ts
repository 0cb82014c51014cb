// The raw scan files' context in the Worker: the R2 binding, the request's session, and the scan
// read with the caller's own token (drafts are readable only by the company's analysts).
import { env } from 'cloudflare:workers'
import { scanPath } from '#domain/scans.ts'
import { publicConfig } from './config.server'
import { FirestoreReadDenied } from './firestore-rest'
import { firestoreReader } from './firestore-rest.server'
import { handleScanFiles, type ScanBucketLike, type ScanFacts } from './scan-files.server'
import { readSession } from './session.server'

declare const FixedLengthStream: new (length: number) => TransformStream<Uint8Array, Uint8Array>

export async function serveScanFiles(request: Request): Promise<Response> {
  const bucket = env.SCAN_FILES as ScanBucketLike | undefined
  if (!bucket) return new Response('The file store is not configured.', { status: 503 })
  let idToken: string | null = null
  return handleScanFiles(request, {
    bucket,
    async session() {
      const current = await readSession()
      idToken = current?.idToken ?? null
      return current?.session ?? null
    },
    async scan(company, scanId) {
      if (!idToken) return null
      try {
        const data = await firestoreReader(publicConfig(), idToken).get(scanPath(company, scanId))
        if (!data) return null
        const files = Array.isArray(data.files) ? data.files : []
        return {
          service: String(data.service ?? ''),
          state: String(data.state ?? ''),
          files: files.flatMap((f) =>
            f && typeof f === 'object' && !Array.isArray(f)
              ? [{ name: String(f.name ?? ''), sha256: String(f.sha256 ?? ''), size: Number(f.size ?? -1), format: String(f.format ?? '') }]
              : [],
          ),
        } satisfies ScanFacts
      } catch (error) {
        if (error instanceof FirestoreReadDenied) return null
        throw error
      }
    },
    fixedLength: (body, length) => body.pipeThrough(new FixedLengthStream(length)),
  })
}
