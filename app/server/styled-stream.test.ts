import { describe, expect, it } from 'vitest'
import { injectStyles } from './styled-stream'

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
      controller.close()
    },
  })
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text()
}

/** Hands out one numbered style tag per call, as a sheet with new rules each time would. */
function counter(): () => string {
  let n = 0
  return () => `<style data-n="${++n}"></style>`
}

describe('injectStyles', () => {
  it('puts the shell styles right before </head>', async () => {
    const html = await readAll(injectStyles(streamOf(['<html><head><title>x</title></head><body>hi</body></html>']), counter()))
    expect(html).toBe('<html><head><title>x</title><style data-n="1"></style></head><body>hi</body></html>')
  })

  it('finds </head> and segment markers split across chunks, byte by byte', async () => {
    const source = '<html><head></head><body><p>shell</p><div hidden id="S:0"><p>late</p></div><script>$RC()</script></body></html>'
    const chunks = source.split('')
    const html = await readAll(injectStyles(streamOf(chunks), counter()))
    expect(html).toBe(
      '<html><head><style data-n="1"></style></head><body><p>shell</p><style data-n="2"></style><div hidden id="S:0"><p>late</p></div><script>$RC()</script></body></html>',
    )
  })

  it('writes styles before every late segment', async () => {
    const html = await readAll(
      injectStyles(streamOf(['<head></head><body>', '<div hidden id="S:0">a</div>', '<div hidden id="S:1">b</div></body>']), counter()),
    )
    expect(html).toBe(
      '<head><style data-n="1"></style></head><body><style data-n="2"></style><div hidden id="S:0">a</div><style data-n="3"></style><div hidden id="S:1">b</div></body>',
    )
  })

  it('keeps multi-byte characters whole across chunk boundaries', async () => {
    const bytes = new TextEncoder().encode('<head></head><body>Sécurité ✓</body>')
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]))
        controller.close()
      },
    })
    const html = await readAll(injectStyles(stream, () => ''))
    expect(html).toBe('<head></head><body>Sécurité ✓</body>')
  })

  it('writes styles once before a segment marker held back over several chunks, and passes the bytes through as they came', async () => {
    const source = '<head></head><body>Sécurité<div hidden id="S:0">ok</div><div hidden id="S:1">✓</div></body>'
    const bytes = new TextEncoder().encode(source)
    // Chunks of 5 bytes: markers and characters fall across them.
    const chunks: Uint8Array[] = []
    for (let at = 0; at < bytes.length; at += 5) chunks.push(bytes.slice(at, at + 5))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk)
        controller.close()
      },
    })
    const html = await readAll(injectStyles(stream, counter()))
    expect(html).toBe(
      '<head><style data-n="1"></style></head><body>Sécurité<style data-n="2"></style><div hidden id="S:0">ok</div><style data-n="3"></style><div hidden id="S:1">✓</div></body>',
    )
  })

  it('passes a document without a head through unchanged', async () => {
    const html = await readAll(injectStyles(streamOf(['<p>frag', 'ment</p>']), counter()))
    expect(html).toBe('<p>fragment</p>')
  })
})
