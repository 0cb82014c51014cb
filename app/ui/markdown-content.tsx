import { useMemo } from 'react'
import styled from 'styled-components'
import { renderMarkdown } from '#domain/markdown.ts'
import { colors, fonts } from './theme'

/** GitHub-flavoured Markdown in the product's type, on the surface colours of either scheme. */
const Prose = styled.div`
  overflow-wrap: anywhere;
  line-height: 1.6;

  > :first-child {
    margin-top: 0;
  }
  > :last-child {
    margin-bottom: 0;
  }
  h1,
  h2,
  h3,
  h4,
  h5,
  h6 {
    margin: 1.25em 0 0.5em;
    line-height: 1.3;
  }
  h1 {
    font-size: 1.5em;
  }
  h2 {
    font-size: 1.3em;
  }
  h3 {
    font-size: 1.15em;
  }
  h4,
  h5,
  h6 {
    font-size: 1em;
  }
  h6 {
    color: ${colors.textMuted};
  }
  p,
  ul,
  ol,
  pre,
  blockquote,
  table {
    margin: 0 0 1em;
  }
  ul,
  ol {
    padding-left: 1.5em;
  }
  li + li,
  li > ul,
  li > ol {
    margin-top: 0.25em;
  }
  li > ul,
  li > ol {
    margin-bottom: 0;
  }
  .contains-task-list {
    list-style: none;
    padding-left: 0.25em;
  }
  a {
    color: ${colors.primary};
    text-decoration: underline;
    text-underline-offset: 2px;
  }
  code {
    padding: 0.1em 0.35em;
    border-radius: 4px;
    background: ${colors.bg};
    border: 1px solid ${colors.border};
    font-family: ${fonts.mono};
    font-size: 0.9em;
  }
  pre {
    padding: 12px 14px;
    overflow-x: auto;
    border-radius: 8px;
    background: ${colors.bg};
    border: 1px solid ${colors.border};
    line-height: 1.45;

    code {
      padding: 0;
      border: none;
      background: none;
    }
  }
  blockquote {
    padding: 0 1em;
    border-left: 3px solid ${colors.border};
    color: ${colors.textMuted};
  }
  hr {
    border: none;
    border-top: 1px solid ${colors.border};
    margin: 1.5em 0;
  }
  img {
    max-width: 100%;
  }
  /* Wide tables scroll on their own rather than widening the page on a phone. */
  table {
    display: block;
    width: max-content;
    max-width: 100%;
    overflow-x: auto;
    border-collapse: collapse;
  }
  th,
  td {
    padding: 6px 12px;
    border: 1px solid ${colors.border};
    text-align: left;
  }
  th {
    background: ${colors.bg};
    font-weight: 600;
  }
`

/** Markdown (templates, findings) as sanitised HTML. */
export function MarkdownContent({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source])
  // Safe to insert: renderMarkdown drops raw HTML and sanitises what Markdown produces (GitHub's
  // rules: no scripts, no event handlers, only safe link protocols; links get rel=noopener).
  return <Prose dangerouslySetInnerHTML={{ __html: html }} />
}
