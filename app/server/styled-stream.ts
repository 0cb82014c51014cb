/**
 * Streams styled-components' CSS into server-rendered HTML.
 *
 * The shell's styles go right before `</head>`, so the first paint is styled. Suspense boundaries
 * that resolve later arrive as `<div hidden id="S:…">` segments; the styles their components
 * registered meanwhile are written just before each segment, so a revealed boundary is never
 * unstyled. React's chunk boundaries can fall anywhere (even inside a tag or a character), which
 * is why the markers are searched in the bytes with a held-back tail rather than per chunk.
 */

const encoder = new TextEncoder()
const HEAD_END = encoder.encode('</head>')
const SEGMENT_START = encoder.encode('<div hidden id="S:')

/** Returns the style tags for the rules registered since it was last called ('' if none). */
export type TakeStyleTags = () => string

/** Where `marker` starts in `bytes` at or after `from`, or -1. */
function indexOfBytes(bytes: Uint8Array, marker: Uint8Array, from: number): number {
  const first = marker[0]!
  const last = bytes.length - marker.length
  for (let at = bytes.indexOf(first, from); at !== -1 && at <= last; at = bytes.indexOf(first, at + 1)) {
    let i = 1
    while (i < marker.length && bytes[at + i] === marker[i]) i++
    if (i === marker.length) return at
  }
  return -1
}

/**
 * The markers are ASCII, so they are searched in the bytes as they come: the page's bytes pass
 * through as they are (never decoded and encoded again), with the style tags between them.
 */
export function injectStyles(body: ReadableStream<Uint8Array>, takeStyleTags: TakeStyleTags): ReadableStream<Uint8Array> {
  let headDone = false
  // The end of the last chunk, kept back in case a marker starts in it; whether it begins with a
  // segment marker whose styles were already written.
  let held: Uint8Array = new Uint8Array(0)
  let heldFromMarker = false

  const process = (chunk: Uint8Array, final: boolean, controller: TransformStreamDefaultController<Uint8Array>): void => {
    let input = chunk
    if (held.length > 0) {
      input = new Uint8Array(held.length + chunk.length)
      input.set(held)
      input.set(chunk, held.length)
      held = new Uint8Array(0)
    }
    const send = (bytes: Uint8Array) => {
      if (bytes.length > 0) controller.enqueue(bytes)
    }
    const sendTags = () => {
      const tags = takeStyleTags()
      if (tags) controller.enqueue(encoder.encode(tags))
    }
    let from = 0
    let handled = heldFromMarker ? 0 : -1
    if (!headDone) {
      const at = indexOfBytes(input, HEAD_END, 0)
      if (at === -1) return holdTail(input, 0, final ? 0 : HEAD_END.length - 1)
      send(input.subarray(0, at))
      sendTags()
      from = at
      headDone = true
    }
    for (
      let at = indexOfBytes(input, SEGMENT_START, Math.max(from, handled + 1));
      at !== -1;
      at = indexOfBytes(input, SEGMENT_START, at + 1)
    ) {
      send(input.subarray(from, at))
      sendTags()
      from = handled = at
    }
    holdTail(input, from, final ? 0 : SEGMENT_START.length - 1)

    function holdTail(rest: Uint8Array, start: number, keep: number): void {
      // Keep back just enough to recognise a marker split across chunks.
      const cut = Math.max(start, rest.length - keep)
      send(rest.subarray(start, cut))
      held = rest.slice(cut)
      heldFromMarker = cut === handled
    }
  }

  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => process(chunk, false, controller),
      flush: (controller) => process(new Uint8Array(0), true, controller),
    }),
  )
}
