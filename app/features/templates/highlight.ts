/**
 * Search highlights arrive as strings with markers around the matched words, and the search
 * service does not escape the record's own text. So the markers are private-use characters that
 * cannot come from a template, and the parts are rendered as text, never as HTML.
 */
export const HIGHLIGHT_PRE_TAG = '\uE000'
export const HIGHLIGHT_POST_TAG = '\uE001'

export interface HighlightPart {
  text: string
  highlighted: boolean
}

export function highlightParts(value: string): HighlightPart[] {
  const parts: HighlightPart[] = []
  let highlighted = false
  let text = ''
  const flush = () => {
    if (text) parts.push({ text, highlighted })
    text = ''
  }
  for (const char of value) {
    if (char === HIGHLIGHT_PRE_TAG || char === HIGHLIGHT_POST_TAG) {
      flush()
      highlighted = char === HIGHLIGHT_PRE_TAG
    } else {
      text += char
    }
  }
  flush()
  return parts
}
