import { describe, expect, it } from 'vitest'
import { markdownToPlainText, renderMarkdown } from './markdown.ts'

const rel = 'rel="noopener noreferrer nofollow"'

describe('renderMarkdown: GitHub-flavoured Markdown', () => {
  it.each([
    ['headings', '# Title\n\n### Detail', '<h1>Title</h1>\n<h3>Detail</h3>'],
    [
      'emphasis and inline code',
      'Use **bold**, _italic_, ~~gone~~ and `code`.',
      '<p>Use <strong>bold</strong>, <em>italic</em>, <del>gone</del> and <code>code</code>.</p>',
    ],
    [
      'lists',
      '- one\n- two\n\n1. first\n2. second',
      '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>first</li>\n<li>second</li>\n</ol>',
    ],
    [
      'task lists',
      '- [ ] open\n- [x] done',
      '<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" disabled> open</li>\n<li class="task-list-item"><input type="checkbox" checked disabled> done</li>\n</ul>',
    ],
    [
      'fenced code, escaped',
      '```html\n<script>alert(1)</script>\n```',
      '<pre><code class="language-html">&#x3C;script>alert(1)&#x3C;/script>\n</code></pre>',
    ],
    [
      'tables',
      '| Header | Value |\n|---|:-:|\n| a | b |',
      '<table>\n<thead>\n<tr>\n<th>Header</th>\n<th align="center">Value</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>a</td>\n<td align="center">b</td>\n</tr>\n</tbody>\n</table>',
    ],
    ['block quotes', '> quoted', '<blockquote>\n<p>quoted</p>\n</blockquote>'],
    ['links with a title', '[OWASP](https://owasp.org "Top 10")', `<p><a href="https://owasp.org" title="Top 10" ${rel}>OWASP</a></p>`],
    [
      'autolinks',
      '<https://example.com> and www.example.org',
      `<p><a href="https://example.com" ${rel}>https://example.com</a> and <a href="http://www.example.org" ${rel}>www.example.org</a></p>`,
    ],
    ['mail links', '[mail](mailto:security@example.com)', `<p><a href="mailto:security@example.com" ${rel}>mail</a></p>`],
  ])('keeps %s', (_label, source, html) => {
    expect(renderMarkdown(source)).toBe(html)
  })

  it('links footnotes to their notes', () => {
    const html = renderMarkdown('Claim[^1]\n\n[^1]: Source')
    expect(html).toContain('href="#user-content-fn-1"')
    expect(html).toContain('<li id="user-content-fn-1">')
    expect(html).toContain('href="#user-content-fnref-1"')
    expect(html).toContain('id="user-content-fnref-1"')
  })
})

describe('renderMarkdown: nothing that runs', () => {
  it.each([
    ['a script block', '<script>alert(1)</script>', ''],
    ['an inline script', 'Hi <script>alert(1)</script> there', '<p>Hi alert(1) there</p>'],
    ['an image with onerror', '<img src="x" onerror="alert(1)">', ''],
    ['a link with onclick', 'a <a href="https://example.com" onclick="alert(1)">b</a>', '<p>a b</p>'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>', ''],
    ['a style block', '<style>body { display: none }</style>', ''],
    ['an svg with onload, inline', '<svg onload="alert(1)"></svg>', '<p></p>'],
  ])('drops raw HTML: %s', (_label, source, html) => {
    expect(renderMarkdown(source)).toBe(html)
  })

  it.each([
    ['javascript:', '[x](javascript:alert(1))'],
    ['JavaScript: in mixed case', '[x](JaVaScRiPt:alert(1))'],
    ['javascript: behind a character reference', '[x](&#106;avascript:alert(1))'],
    ['javascript: behind a space and a tab', '[x](<\tjavascript:alert(1)>)'],
    ['vbscript:', '[x](vbscript:msgbox(1))'],
    ['data:', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['a javascript: autolink', '<javascript:alert(1)>'],
    ['a javascript: reference link', '[x][ref]\n\n[ref]: javascript:alert(1)'],
  ])('removes the address of a link to %s', (_label, source) => {
    const html = renderMarkdown(source)
    expect(html).toMatch(new RegExp(`^<p><a ${rel}>[^<]*</a></p>$`))
  })

  it.each([
    ['javascript:', '![x](javascript:alert(1))'],
    ['vbscript:', '![x](vbscript:msgbox(1))'],
    ['data:', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)'],
  ])('shows an image from %s as its alternative text', (_label, source) => {
    expect(renderMarkdown(source)).toBe('<p>x</p>')
  })

  it('fetches no remote image (a tracking pixel): an image shows as its alternative text', () => {
    expect(renderMarkdown('See ![diagram](https://tracker.example/p.png) and ![](https://tracker.example/q.gif)')).toBe(
      '<p>See diagram and </p>',
    )
    expect(renderMarkdown('[![badge](https://tracker.example/b.svg)](https://example.com)')).toBe(
      `<p><a href="https://example.com" ${rel}>badge</a></p>`,
    )
  })

  it('never lets handlers, scripts or dangerous schemes through a mixed document', () => {
    const html = renderMarkdown(
      [
        '# Report',
        '<img src=x onerror=alert(1)>',
        '[a](javascript:alert(1)) ![b](data:image/png;base64,AAAA) [c](vbscript:x)',
        '<a href="javascript:alert(1)">d</a> <div onclick="alert(1)">e</div>',
        '<script src="https://evil.example/x.js"></script>',
      ].join('\n\n'),
    )
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:|vbscript:|data:/i)
    expect(html).toContain('<h1>Report</h1>')
  })
})

describe('markdownToPlainText', () => {
  it.each([
    ['formatting', 'Some **bold** and *it*alic and `code`', 'Some bold and italic and code'],
    ['headings, lists and paragraphs become one line', '# Title\n\n- one\n- two\n\nEnd.', 'Title one two End.'],
    ['links keep their text', 'See [the guide](https://example.com).', 'See the guide.'],
    ['code blocks keep their code', '```\nSELECT 1;\n```', 'SELECT 1;'],
    ['tables keep their cells', '| a | b |\n|---|---|\n| 1 | 2 |', 'a b 1 2'],
    ['raw HTML and images are dropped', 'Hi <b>there</b> ![alt](https://example.com/a.png)', 'Hi there'],
    ['whitespace collapses', '  line one  \nline   two  ', 'line one line two'],
    ['empty text', '', ''],
  ])('%s', (_label, source, text) => {
    expect(markdownToPlainText(source)).toBe(text)
  })
})
