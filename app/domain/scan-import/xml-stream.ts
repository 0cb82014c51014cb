// A streaming XML reader for the scanner parsers: text arrives chunk by chunk and only the elements
// a parser asks for are kept, one subtree at a time (one <host>, one <alertitem>), so a 100 MB file
// never needs 100 MB of strings. Hostile files are refused rather than expanded: saxes knows only the
// five predefined entities, and a DOCTYPE that declares entities (billion laughs, XXE) is refused
// before any of them could be used. Depth, each run of characters and every kept string are bounded.
import { SaxesParser } from 'saxes'
import { PARSE_LIMITS, ScanParseError, bounded } from './parsed-scan.ts'

/** One element as kept: its attributes, its text (concatenated, bounded) and its child elements. */
export interface XmlNode {
  name: string
  attributes: Record<string, string>
  text: string
  children: XmlNode[]
  /** The line its start tag is on (from 1), for notes. */
  line: number
}

/**
 * Element paths a parser listens to: "nmaprun/host" is that element under that root; "//results/result"
 * is any element whose path ends so. Once an element is being collected, the elements inside it are
 * part of its subtree and are not reported on their own.
 */
export interface XmlHandlers {
  /** Called with the start tag (no text, no children yet): run metadata on a root element. */
  open?: Record<string, (node: XmlNode) => void>
  /** Called with the whole subtree once the element closes. */
  collect?: Record<string, (node: XmlNode) => void>
  /** Called with the root element's start tag: a parser refuses a file that is not its format. */
  root?: (node: XmlNode) => void
}

/** The longest run of characters without markup (a text node, an attribute, a comment) the reader accepts. */
export const MAX_XML_RUN_CHARS = 1_048_576
/** Characters before the root element (declaration, DOCTYPE, comments). */
export const MAX_XML_PROLOG_CHARS = 1_048_576
/** Elements in one collected subtree. */
export const MAX_XML_SUBTREE_NODES = 250_000

interface Matcher {
  exact: Map<string, (node: XmlNode) => void>
  suffix: [string, (node: XmlNode) => void][]
}

function matcher(handlers: Record<string, (node: XmlNode) => void> | undefined): Matcher {
  const result: Matcher = { exact: new Map(), suffix: [] }
  for (const [path, handler] of Object.entries(handlers ?? {})) {
    if (path.startsWith('//')) result.suffix.push([`/${path.slice(2)}`, handler])
    else result.exact.set(path, handler)
  }
  return result
}

function lookup(m: Matcher, path: string): ((node: XmlNode) => void) | undefined {
  const exact = m.exact.get(path)
  if (exact) return exact
  const slashed = `/${path}`
  for (const [suffix, handler] of m.suffix) if (slashed.endsWith(suffix)) return handler
  return undefined
}

const ENTITY_DECLARATION = /<!ENTITY/i

/** saxes prefixes its messages with "line:column: "; the error names the line on its own. */
const saxesReason = (message: string) => message.replace(/^[^:]*:?\d+:\d+: /, '').replace(/\.$/, '')

export interface XmlLimits {
  /** A format whose files hold one longer run (Nessus's plugin_set lists every plugin id) raises this. */
  maxRunChars?: number
}

/** Reads an XML text source, handing the parser the elements it listens to. Throws ScanParseError. */
export async function readXml(
  source: AsyncIterable<string>,
  formatLabel: string,
  handlers: XmlHandlers,
  limits: XmlLimits = {},
): Promise<void> {
  const maxRun = limits.maxRunChars ?? MAX_XML_RUN_CHARS
  const parser = new SaxesParser({ position: true })
  const opens = matcher(handlers.open)
  const collects = matcher(handlers.collect)
  const path: string[] = []
  // The subtree being collected: its open elements, innermost last.
  const stack: XmlNode[] = []
  let collectHandler: ((node: XmlNode) => void) | undefined
  let subtreeNodes = 0
  let seenRoot = false
  let prologChars = 0
  let run = 0

  const fail = (reason: string, line = parser.line): never => {
    throw new ScanParseError(formatLabel, `line ${line}`, reason)
  }

  parser.on('doctype', (doctype) => {
    if (ENTITY_DECLARATION.test(doctype)) fail('the DOCTYPE declares entities (entity expansion and external entities are refused)')
  })
  parser.on('opentag', (tag) => {
    path.push(tag.name)
    if (path.length > PARSE_LIMITS.maxDepth) fail(`elements nested deeper than ${PARSE_LIMITS.maxDepth}`)
    const attributes: Record<string, string> = {}
    for (const [name, value] of Object.entries(tag.attributes)) attributes[name] = bounded(value as string)
    const node: XmlNode = { name: tag.name, attributes, text: '', children: [], line: parser.line }
    if (!seenRoot) {
      seenRoot = true
      handlers.root?.(node)
    }
    const parent = stack.at(-1)
    if (parent) {
      if (++subtreeNodes > MAX_XML_SUBTREE_NODES) fail(`<${stack[0]?.name}> holds more than ${MAX_XML_SUBTREE_NODES} elements`)
      parent.children.push(node)
      stack.push(node)
      return
    }
    const key = path.join('/')
    lookup(opens, key)?.(node)
    const handler = lookup(collects, key)
    if (handler) {
      collectHandler = handler
      subtreeNodes = 1
      stack.push(node)
    }
  })
  const addText = (text: string) => {
    const node = stack[stack.length - 1]
    if (node && node.text.length < PARSE_LIMITS.maxFieldChars) node.text = bounded(node.text + text)
  }
  parser.on('text', addText)
  parser.on('cdata', addText)
  parser.on('closetag', () => {
    path.pop()
    const node = stack.pop()
    if (node && stack.length === 0) {
      const handler = collectHandler
      collectHandler = undefined
      handler?.(node)
    }
  })

  const write = (chunk: string | null) => {
    try {
      if (chunk === null) parser.close()
      else parser.write(chunk)
    } catch (error) {
      if (error instanceof ScanParseError) throw error
      fail(saxesReason(error instanceof Error ? error.message : String(error)))
    }
  }

  for await (const chunk of source) {
    // saxes holds a text node, an attribute or a DOCTYPE whole until it ends: bound what it may hold.
    const firstMarkup = chunk.indexOf('<')
    if (run + (firstMarkup < 0 ? chunk.length : firstMarkup) > maxRun) fail(`more than ${maxRun} characters without markup`)
    run = firstMarkup < 0 ? run + chunk.length : chunk.length - chunk.lastIndexOf('<') - 1
    if (!seenRoot && prologChars > MAX_XML_PROLOG_CHARS) fail(`more than ${MAX_XML_PROLOG_CHARS} characters before the root element`)
    write(chunk)
    if (!seenRoot) prologChars += chunk.length
  }
  write(null)
}

/** The first child element named `name`. */
export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined => node?.children.find((c) => c.name === name)

/** The child elements named `name`. */
export const childrenNamed = (node: XmlNode | undefined, name: string): XmlNode[] => node?.children.filter((c) => c.name === name) ?? []

/** The trimmed text of a child element (or of the node itself without a name); '' when absent. */
export const textOf = (node: XmlNode | undefined, name?: string): string =>
  ((name === undefined ? node : child(node, name))?.text ?? '').trim()

/** A number from an attribute or text, or undefined when it is not one. */
export function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  const number = Number(value)
  return Number.isFinite(number) ? number : undefined
}

/**
 * For sniffing: the root element's start tag at the head of a file ("<nmaprun scanner=...>"), past the
 * declaration, comments, processing instructions and DOCTYPE; null when the head is not XML.
 */
export function xmlRootTag(head: string): { name: string; tag: string } | null {
  let rest = head.replace(/^\uFEFF/, '')
  for (;;) {
    rest = rest.trimStart()
    if (rest.startsWith('<?')) rest = rest.slice(rest.indexOf('?>') + 2 || rest.length)
    else if (rest.startsWith('<!--')) rest = rest.slice(rest.indexOf('-->') + 3 || rest.length)
    else if (rest.startsWith('<!DOCTYPE')) {
      const subset = rest.indexOf('[')
      const close = rest.indexOf('>')
      const end = subset >= 0 && subset < close ? rest.indexOf(']>', subset) + 2 : close + 1
      rest = end > 0 ? rest.slice(end) : ''
    } else break
    if (rest === '') return null
  }
  const match = /^<([A-Za-z_][\w.:-]*)(?:\s[^>]*)?\/?>/.exec(rest)
  return match?.[1] ? { name: match[1], tag: match[0] } : null
}
