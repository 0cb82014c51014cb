// The Worker's JavaScript heap, read through workerd's V8 inspector: the Cloudflare plugin's
// preview server publishes the inspector's address on /__debug (port 9229, or the next free one).
import { writeFileSync } from 'node:fs'

/** What is still alive after a full collection (MiB). */
export interface HeapAfterGc {
  /** JavaScript objects. */
  jsMiB: number
  /** workerd's own objects behind them (requests, responses, headers, streams). */
  workerdMiB: number
  /** The contents of ArrayBuffers. */
  buffersMiB: number
  /** The three together. */
  liveMiB: number
  /** What V8 keeps for its heap, free space included (MiB). */
  heapMiB: number
}

export interface WorkerInspector {
  heapAfterGc(): Promise<HeapAfterGc>
  writeSnapshot(file: string): Promise<void>
  close(): void
}

export async function workerInspector(baseUrl: string): Promise<WorkerInspector> {
  const debugPage = decodeURIComponent(await (await fetch(`${baseUrl}/__debug`)).text())
  const address = /ws=([^&"']+)/.exec(debugPage)?.[1]
  if (!address) throw new Error(`${baseUrl}/__debug names no inspector`)
  // The inspector proxy takes connections from local DevTools only, known by their Origin (Node's
  // WebSocket takes headers where the DOM's takes only protocols).
  const socket = new WebSocket(`ws://${address}`, { headers: { origin: 'http://127.0.0.1' } } as never)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true })
    socket.addEventListener('error', () => reject(new Error(`No inspector at ws://${address}`)), { once: true })
  })

  let nextId = 1
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>()
  let onChunk: ((chunk: string) => void) | undefined
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as {
      id?: number
      method?: string
      params?: { chunk?: string }
      result?: unknown
      error?: { message: string }
    }
    if (message.method === 'HeapProfiler.addHeapSnapshotChunk') onChunk?.(message.params!.chunk!)
    const waiting = message.id === undefined ? undefined : pending.get(message.id)
    if (!waiting) return
    pending.delete(message.id!)
    if (message.error) waiting.reject(new Error(message.error.message))
    else waiting.resolve(message.result)
  })
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve: resolve as (result: unknown) => void, reject })
      socket.send(JSON.stringify({ id, method, params }))
    })

  // workerd runs the collection as a task of the isolate, which waits for the isolate's next
  // event: a request every half second gives it one when the Worker is idle.
  const collectOnce = async () => {
    const nudge = setInterval(() => {
      // Only its arrival matters, not its answer (nor a refusal while the stack stops).
      fetch(baseUrl).then(
        (response) => response.body?.cancel(),
        () => {},
      )
    }, 500)
    try {
      await send('HeapProfiler.collectGarbage')
    } finally {
      clearInterval(nudge)
    }
  }
  const collect = async () => {
    // Twice: objects freed by the first collection's finalizers go in the second.
    await collectOnce()
    await collectOnce()
  }
  const toMiB = (bytes: number) => bytes / 1024 / 1024
  return {
    async heapAfterGc() {
      await collect()
      const usage = await send<{ usedSize: number; totalSize: number; embedderHeapUsedSize?: number; backingStorageSize?: number }>(
        'Runtime.getHeapUsage',
      )
      const [js, workerd, buffers] = [usage.usedSize, usage.embedderHeapUsedSize ?? 0, usage.backingStorageSize ?? 0]
      return {
        jsMiB: toMiB(js),
        workerdMiB: toMiB(workerd),
        buffersMiB: toMiB(buffers),
        liveMiB: toMiB(js + workerd + buffers),
        heapMiB: toMiB(usage.totalSize),
      }
    },
    async writeSnapshot(file) {
      await collect()
      const chunks: string[] = []
      onChunk = (chunk) => chunks.push(chunk)
      await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
      onChunk = undefined
      writeFileSync(file, chunks.join(''))
    },
    close: () => socket.close(),
  }
}
