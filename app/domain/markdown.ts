// The Markdown of finding templates (description, impact, remediation): GitHub-flavoured Markdown
// rendered to HTML that is safe to insert into the page, and read as plain text for search.
import type { Element, Root as HtmlRoot, RootContent as HtmlContent } from 'hast'
import type { Nodes as MarkdownNode } from 'mdast'
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'

/** Templates link to sites nobody vouches for: the opened page gets no opener, no referrer and no ranking. */
export const LINK_REL = ['noopener', 'noreferrer', 'nofollow']

function forEachElement(node: HtmlRoot | HtmlContent, visit: (element: Element) => void) {
  if (node.type === 'element') visit(node)
  if ('children' in node) for (const child of node.children) forEachElement(child, visit)
}

const relOnLinks = () => (tree: HtmlRoot) =>
  forEachElement(tree, (element) => {
    if (element.tagName === 'a') element.properties.rel = [...LINK_REL]
  })

// An image would be fetched by every reader's browser from wherever the author pointed it: a
// tracking pixel that reports who read the template, when and from where. Images show as their
// alternative text instead.
const imagesAsText = () => (tree: HtmlRoot) => {
  const visit = (node: HtmlRoot | HtmlContent) => {
    if (!('children' in node)) return
    node.children = node.children.flatMap((child): HtmlContent[] => {
      if (child.type === 'element' && child.tagName === 'img') {
        const alt = typeof child.properties.alt === 'string' ? child.properties.alt : ''
        return alt ? [{ type: 'text', value: alt }] : []
      }
      visit(child)
      return [child]
    }) as typeof node.children
  }
  visit(tree)
}

// Raw HTML in the source is dropped (remark-rehype leaves it out); the sanitiser then applies
// GitHub's rules to what Markdown itself produced: no scripts, no event handlers, and only
// http(s), mailto and a few chat protocols in links. The only ids Markdown
// makes are footnotes', which remark-rehype already prefixes: prefixing them twice would break
// the footnote links.
const sanitizeSchema = { ...defaultSchema, clobberPrefix: '' }

const toHtml = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(imagesAsText)
  .use(rehypeSanitize, sanitizeSchema)
  .use(relOnLinks)
  .use(rehypeStringify)
  .freeze()

export function renderMarkdown(source: string): string {
  return String(toHtml.processSync(source))
}

const markdownReader = unified().use(remarkParse).use(remarkGfm).freeze()

/** The Markdown's syntax tree (GitHub-flavoured), for writers other than HTML (the PDF report). */
export const parseMarkdown = (source: string) => markdownReader.parse(source)

/** Nodes whose children run on in one line of text; the children of other nodes are separate blocks. */
const inlineParents = new Set(['paragraph', 'heading', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'tableCell'])

function textOf(node: MarkdownNode): string {
  if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') return node.value
  if (node.type === 'break') return ' '
  // Raw HTML, images and definitions carry no readable text.
  if (!('children' in node)) return ''
  return node.children.map(textOf).join(inlineParents.has(node.type) ? '' : ' ')
}

/** The words a reader sees, on one line: Markdown syntax and raw HTML removed, whitespace collapsed. */
export function markdownToPlainText(source: string): string {
  return textOf(markdownReader.parse(source)).replace(/\s+/g, ' ').trim()
}

// Every character a writer typed that is not Markdown syntax: text in angle brackets (`<host>`,
// which Markdown reads as raw HTML) and code as written, a link's words with its address.
function exactTextOf(node: MarkdownNode): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
    case 'html':
      return node.value
    case 'break':
      return '\n'
    case 'image':
    case 'imageReference':
      return node.alt ?? ''
    case 'link': {
      const words = node.children.map(exactTextOf).join('')
      return words === node.url || node.url === '' ? words : `${words} (${node.url})`
    }
    case 'listItem':
      return `- ${node.children.map(exactTextOf).join('\n')}`
    case 'tableRow':
      return node.children.map(exactTextOf).join(' | ')
    case 'list':
    case 'table':
      return node.children.map(exactTextOf).join('\n')
    default:
      if (!('children' in node)) return ''
      return node.children.map(exactTextOf).join(inlineParents.has(node.type) ? '' : '\n\n')
  }
}

/**
 * The Markdown as plain text for readers that show no Markdown (SARIF's `text`): its syntax
 * removed, every character of its text kept as written (angle brackets and code included),
 * paragraphs, list items and table rows on lines of their own.
 */
export const markdownToText = (source: string): string => exactTextOf(markdownReader.parse(source)).trim()
