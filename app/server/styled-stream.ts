/**
 * Streams styled-components' CSS into server-rendered HTML.
 *
 * The shell's styles go right before `</head>`, so the first paint is styled. Suspense boundaries
 * that resolve later arrive as `<div hidden id="S:…">` segments; the styles their components
 * registered meanwhile are written just before each segment, so a revealed boundary is never
 * unstyled. React's chunk boundaries can fall anywhere (even inside a tag), which is why the
 * markers are searched in text with a held-back tail rather than per chunk.
 */

const HEAD_END = '</head>'
const SEGMENT_START = '<div hidden id="S:'

/** Returns the style tags for the rules registered since it was last called ('' if none). */
export type TakeStyleTags = () => string

export function injectStyles(body: ReadableStream<Uint8Array>, takeStyleTags: TakeStyleTags): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let headDone = false
  let held = ''

  const process = (text: string, final: boolean): string => {
    let input = held + text
    held = ''
    let out = ''
    if (!headDone) {
      const at = input.indexOf(HEAD_END)
      if (at === -1) {
        return final ? input : holdTail(input, HEAD_END.length)
      }
      out = input.slice(0, at) + takeStyleTags()
      input = input.slice(at)
      headDone = true
    }
    let from = 0
    for (let at = input.indexOf(SEGMENT_START); at !== -1; at = input.indexOf(SEGMENT_START, at + 1)) {
      out += input.slice(from, at) + takeStyleTags()
      from = at
    }
    input = input.slice(from)
    return out + (final ? input : holdTail(input, SEGMENT_START.length))

    function holdTail(rest: string, markerLength: number): string {
      // Keep back just enough to recognise a marker split across chunks.
      const keep = Math.min(markerLength - 1, rest.length)
      held = rest.slice(rest.length - keep)
      return rest.slice(0, rest.length - keep)
    }
  }

  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const text = process(decoder.decode(chunk, { stream: true }), false)
        if (text) controller.enqueue(encoder.encode(text))
      },
      flush(controller) {
        const text = process(decoder.decode(), true)
        if (text) controller.enqueue(encoder.encode(text))
      },
    }),
  )
}
