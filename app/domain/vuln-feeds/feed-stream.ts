// Reading a feed's bytes within bounds: a feed is someone else's file, so its size (before and after
// gzip) is capped, its text must be UTF-8 and its lines short. Web streams only: the same code runs
// in the functions and in tests.
import { withoutBom } from '../scan-import/json-stream.ts'
import { ScanParseError } from '../scan-import/parsed-scan.ts'
import { decodeBytes, numberedLines } from '../scan-import/text-source.ts'

/**
 * A feed that cannot be read, with where in it and why: a hostile file refused as a scanner's is
 * (the feed's name stands where a scan file's format does).
 */
export class FeedError extends ScanParseError {
  constructor(feed: string, where: string, reason: string) {
    super(feed, where, reason)
    this.name = 'FeedError'
  }
}

/** The stream's bytes, refused as soon as more than `maxBytes` have passed. */
export function limitBytes(source: ReadableStream<Uint8Array>, maxBytes: number, feed: string, what: string): ReadableStream<Uint8Array> {
  let seen = 0
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > maxBytes) throw new FeedError(feed, what, `larger than ${maxBytes} bytes`)
        controller.enqueue(chunk)
      },
    }),
  )
}

/** The stream unpacked when it starts as gzip does (1f 8b), as it is otherwise: a server may have unpacked it already. */
export async function ungzipped(source: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = source.getReader()
  let first = await reader.read()
  // The magic needs two bytes; a first chunk of one byte is joined to the next.
  while (!first.done && first.value.byteLength < 2) {
    const next = await reader.read()
    if (next.done) break
    first = { done: false, value: new Uint8Array([...first.value, ...next.value]) }
  }
  const head = first.done ? new Uint8Array() : first.value
  const rejoined = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.byteLength) controller.enqueue(head)
    },
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
  const gzip = head[0] === 0x1f && head[1] === 0x8b
  return gzip ? rejoined.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>) : rejoined
}

/** The stream's lines (without their breaks; a leading BOM dropped), each at most `maxLineChars`. */
export async function* textLines(source: ReadableStream<Uint8Array>, maxLineChars: number, feed: string): AsyncGenerator<string> {
  const refusal = (where: string, reason: string) => new FeedError(feed, where, reason)
  let line = 0
  try {
    // Not fatal: a bad byte shows as U+FFFD in its own line, so the refusal can say which.
    for await (const { line: text, number } of numberedLines(withoutBom(decodeBytes(source)), feed, { maxLineChars, refusal })) {
      line = number
      if (text.includes('\uFFFD')) throw refusal(`line ${number}`, 'not UTF-8 text')
      yield text
    }
  } catch (error) {
    if (error instanceof FeedError) throw error
    throw refusal(`line ${line + 1}`, 'the file cannot be unpacked (broken gzip?)')
  }
}

/** The whole stream as UTF-8 text (bounded by the caller's limitBytes). */
export async function streamText(source: ReadableStream<Uint8Array>, feed: string): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let text = ''
  try {
    for await (const chunk of source as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true })
    return text + decoder.decode()
  } catch (error) {
    if (error instanceof FeedError) throw error
    throw new FeedError(feed, 'the file', 'not UTF-8 text')
  }
}
