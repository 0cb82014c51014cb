import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { type FindingTemplate, TEMPLATE_CONTENT_FIELDS } from './finding-template.ts'
import {
  TEMPLATE_CSV_COLUMNS,
  TEMPLATE_EXPORT_FORMAT,
  exportTemplatesCsv,
  exportTemplatesJson,
  planTemplateImport,
  type TemplateImportPlan,
} from './template-transfer.ts'

const meta = { createdAt: Date.UTC(2024, 0, 1), updatedAt: Date.UTC(2024, 5, 30, 12, 0, 0), updatedBy: 'analyst@example.com' }

/** Everything a CSV or JSON writer can get wrong: separators, quotes, line breaks, Markdown, scripts, formulas. */
const tricky: FindingTemplate = {
  slug: 'stored-xss-in-comments',
  title: ' He said "hi", then left; 100% — 日本語 🚀 ',
  severity: 'high',
  cvss: { version: '4.0', vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U', score: 8.1 },
  cwe: ['CWE-79', 'CWE-116'],
  description: [
    '- Comments are stored, then rendered "as is", without encoding.',
    '',
    '| Field | Value, with comma |',
    '|---|---|',
    '| name | `<script>alert("x")</script>` |',
    '',
    '```js',
    "fetch('/api?a=1,b=2')\r\n",
    '```',
    '',
    'Ünïcödé: Ωμέγα, עברית, 😀',
  ].join('\n'),
  impact: '=HYPERLINK("https://evil.example","click")',
  remediation: "'Encode' output;\n+ validate input\n@ review",
  references: ['https://example.com/a?x=1;y=2,z', 'http://example.org/path#frag'],
  tags: ['xss', 'owasp-a03'],
  services: ['dast', 'projectmariana'],
  status: 'deprecated',
  ...meta,
}

const bare: FindingTemplate = {
  slug: 'missing-hsts',
  title: 'Missing HSTS header',
  severity: 'low',
  cvss: null,
  cwe: [],
  description: '',
  impact: '',
  remediation: '',
  references: [],
  tags: [],
  services: [],
  status: 'draft',
  ...meta,
}

const LOG4SHELL_VECTOR = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H'

const log4shell: FindingTemplate = {
  ...bare,
  slug: 'log4shell',
  title: 'Log4Shell',
  severity: 'critical',
  cvss: { version: '3.1', vector: LOG4SHELL_VECTOR, score: 10 },
  tags: ['rce'],
  status: 'ready',
}

const library = [tricky, bare, log4shell]

function planned(plan: TemplateImportPlan) {
  if (!plan.ok) throw new Error(plan.error)
  return plan
}

const csvOf = (rows: readonly (readonly string[])[]) => Papa.unparse(rows.map((row) => [...row]))

describe('exportTemplatesJson', () => {
  it('writes a versioned envelope with every field and readable times', () => {
    const document = JSON.parse(exportTemplatesJson([log4shell]))
    expect(document).toEqual({
      format: 'bulwark.finding-templates',
      version: 1,
      templates: [
        {
          slug: 'log4shell',
          title: 'Log4Shell',
          severity: 'critical',
          cvss: { version: '3.1', vector: LOG4SHELL_VECTOR, score: 10 },
          cwe: [],
          description: '',
          impact: '',
          remediation: '',
          references: [],
          tags: ['rce'],
          services: [],
          status: 'ready',
          createdAt: '2024-01-01T00:00:00.000Z',
          updatedAt: '2024-06-30T12:00:00.000Z',
          updatedBy: 'analyst@example.com',
        },
      ],
    })
    expect(Object.keys(document.templates[0])).toEqual([...TEMPLATE_CONTENT_FIELDS, 'createdAt', 'updatedAt', 'updatedBy'])
  })
})

describe('exportTemplatesCsv', () => {
  const csv = exportTemplatesCsv(library)
  const [header, first] = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data

  it('starts with a byte order mark and a header row in a stable order', () => {
    expect(
      csv.startsWith(
        '\uFEFFslug,title,severity,status,cvss_vector,cvss_score,cwe,tags,services,references,description,impact,remediation,created_at,updated_at,updated_by\r\n',
      ),
    ).toBe(true)
    expect(header).toEqual([...TEMPLATE_CSV_COLUMNS])
  })

  it('puts one list item per line inside its cell and the score beside the vector', () => {
    const cell = (column: (typeof TEMPLATE_CSV_COLUMNS)[number]) => first?.[TEMPLATE_CSV_COLUMNS.indexOf(column)]
    expect(cell('references')).toBe('https://example.com/a?x=1;y=2,z\nhttp://example.org/path#frag')
    expect(cell('services')).toBe('dast\nprojectmariana')
    expect(cell('cvss_score')).toBe('8.1')
    expect(cell('created_at')).toBe('2024-01-01T00:00:00.000Z')
  })

  it('keeps spreadsheets from running cells as formulas', () => {
    const cell = (column: (typeof TEMPLATE_CSV_COLUMNS)[number]) => first?.[TEMPLATE_CSV_COLUMNS.indexOf(column)]
    expect(cell('impact')).toBe(`'=HYPERLINK("https://evil.example","click")`)
    expect(cell('description')?.startsWith("'- Comments")).toBe(true)
    expect(cell('remediation')?.startsWith("''Encode'")).toBe(true)
    expect(cell('title')).toBe(tricky.title)
  })
})

describe('planTemplateImport: an export imported into the same library changes nothing', () => {
  const exports = [
    ['JSON, known by its name', { name: 'templates.json', text: exportTemplatesJson(library) }, 'json'],
    ['JSON, known by its content', { text: exportTemplatesJson(library) }, 'json'],
    ['CSV, known by its name', { name: 'Templates.CSV', text: exportTemplatesCsv(library) }, 'csv'],
    ['CSV, known by its content', { text: exportTemplatesCsv(library) }, 'csv'],
  ] as const

  it.each(exports)('%s', (_label, file, format) => {
    expect(planTemplateImport(file, library)).toEqual({
      ok: true,
      format,
      rows: library.map((template, index) => ({
        row: format === 'csv' ? index + 2 : index + 1,
        slug: template.slug,
        outcome: 'unchanged',
      })),
      writes: [],
    })
  })

  it.each(exports)('%s, into an empty library, creates the same templates', (_label, file) => {
    const { writes } = planned(planTemplateImport(file, []))
    expect(writes).toEqual(library.map((template) => ({ outcome: 'created', template: contentOf(template) })))
  })
})

describe('planTemplateImport: row by row', () => {
  it('creates new slugs, updates changed ones and leaves equal ones alone', () => {
    const edited = { ...log4shell, tags: ['rce', 'java'], remediation: 'Upgrade to 2.17.1.' }
    const text = exportTemplatesJson([bare, edited, { ...tricky, slug: 'new-one' }])
    const plan = planned(planTemplateImport({ name: 'x.json', text }, library))
    expect(plan.rows).toEqual([
      { row: 1, slug: 'missing-hsts', outcome: 'unchanged' },
      { row: 2, slug: 'log4shell', outcome: 'updated' },
      { row: 3, slug: 'new-one', outcome: 'created' },
    ])
    expect(plan.writes.map(({ outcome, template }) => [outcome, template.slug, template.tags])).toEqual([
      ['updated', 'log4shell', ['rce', 'java']],
      ['created', 'new-one', ['xss', 'owasp-a03']],
    ])
  })

  it('compares content, not the order of keys a database returns them in', () => {
    const { cvss: _cvss, ...rest } = log4shell
    const reordered: FindingTemplate = { cvss: { score: 10, vector: LOG4SHELL_VECTOR, version: '3.1' }, ...rest }
    const plan = planned(planTemplateImport({ text: exportTemplatesCsv([log4shell]) }, [reordered]))
    expect(plan.rows).toEqual([{ row: 2, slug: 'log4shell', outcome: 'unchanged' }])
  })

  it('changes only the columns a CSV has', () => {
    const text = csvOf([
      ['slug', 'tags', 'status'],
      ['log4shell', 'rce, java; jndi', 'ready'],
      ['missing-hsts', '', 'draft'],
    ])
    const plan = planned(planTemplateImport({ name: 'retag.csv', text }, library))
    expect(plan.rows.map((row) => row.outcome)).toEqual(['updated', 'unchanged'])
    expect(plan.writes).toEqual([{ outcome: 'updated', template: { ...contentOf(log4shell), tags: ['rce', 'java', 'jndi'] } }])
  })

  it('makes the slug of a row without one from its title', () => {
    const text = csvOf([
      ['title', 'severity', 'references'],
      ['Open redirect in /login?next=', 'medium', 'https://example.com/a;b\nhttps://example.com/c'],
    ])
    const plan = planned(planTemplateImport({ text }, library))
    expect(plan.rows).toEqual([{ row: 2, slug: 'open-redirect-in-login-next', outcome: 'created' }])
    expect(plan.writes[0]?.template).toMatchObject({
      slug: 'open-redirect-in-login-next',
      references: ['https://example.com/a;b', 'https://example.com/c'],
    })
  })

  it('refuses invalid rows with the reason and keeps the valid ones', () => {
    const text = csvOf([
      ['slug', 'title', 'severity', 'cvss_vector', 'cvss_score', 'tags'],
      ['ok-row', 'Fine', 'info', '', '', ''],
      ['bad-severity', 'Bad', 'urgent', '', '', ''],
      ['bad-vector', 'Bad', 'high', 'CVSS:3.1/AV:N/AC:L', '', ''],
      ['bad-score', 'Bad', 'high', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '7.5', ''],
      ['Bad Slug', 'Bad', 'high', '', '', 'Not A Tag'],
      ['', '', 'high', '', '', ''],
    ])
    expect(planned(planTemplateImport({ text }, [])).rows).toEqual([
      { row: 2, slug: 'ok-row', outcome: 'created' },
      { row: 3, slug: 'bad-severity', outcome: 'refused', reason: 'severity: Choose a severity: critical, high, medium, low, info' },
      {
        row: 4,
        slug: 'bad-vector',
        outcome: 'refused',
        reason:
          'cvss: Missing base metrics: PR (Privileges Required), UI (User Interaction), S (Scope), C (Confidentiality Impact), I (Integrity Impact), A (Availability Impact)',
      },
      { row: 5, slug: 'bad-score', outcome: 'refused', reason: 'cvss: The score 7.5 does not match the vector, which scores 9.8' },
      {
        row: 6,
        slug: 'Bad Slug',
        outcome: 'refused',
        reason:
          'slug: A slug is lowercase letters and digits joined by single hyphens, like sql-injection; tags: "not a tag" is not a tag: use lowercase words joined by hyphens, like sql-injection',
      },
      { row: 7, slug: null, outcome: 'refused', reason: 'slug: Enter a slug; title: Enter a title' },
    ])
  })

  it('refuses a slug that an earlier row of the file already has, even when the earlier row was refused', () => {
    const text = exportTemplatesJson([log4shell, { ...log4shell, title: 'Again' }, { ...bare, severity: 'bogus' as 'low' }, bare])
    expect(planned(planTemplateImport({ text }, [])).rows).toEqual([
      { row: 1, slug: 'log4shell', outcome: 'created' },
      { row: 2, slug: 'log4shell', outcome: 'refused', reason: 'Row 1 of this file has the same slug' },
      { row: 3, slug: 'missing-hsts', outcome: 'refused', reason: 'severity: Choose a severity: critical, high, medium, low, info' },
      { row: 4, slug: 'missing-hsts', outcome: 'refused', reason: 'Row 3 of this file has the same slug' },
    ])
  })

  it('finds duplicates between a given slug and one made from a title', () => {
    const text = csvOf([
      ['slug', 'title', 'severity'],
      ['', 'Log4Shell', 'critical'],
      ['log4shell', 'Log4Shell', 'critical'],
    ])
    expect(planned(planTemplateImport({ text }, [])).rows.map((row) => row.outcome)).toEqual(['created', 'refused'])
  })

  it('refuses JSON rows that are not templates or carry unknown fields, and ignores exported metadata', () => {
    const text = JSON.stringify({
      format: TEMPLATE_EXPORT_FORMAT,
      version: 1,
      templates: [
        'log4shell',
        [],
        { slug: 'a', title: 'A', severity: 'low', owner: 'me' },
        { ...contentOf(log4shell), updatedBy: 'someone@else', createdAt: 'whenever' },
      ],
    })
    expect(planned(planTemplateImport({ text }, library)).rows).toEqual([
      { row: 1, slug: null, outcome: 'refused', reason: 'A template is an object of fields' },
      { row: 2, slug: null, outcome: 'refused', reason: 'A template is an object of fields' },
      { row: 3, slug: 'a', outcome: 'refused', reason: 'owner: Unknown field' },
      { row: 4, slug: 'log4shell', outcome: 'unchanged' },
    ])
  })

  it('refuses a non-text slug rather than making one from the title', () => {
    const text = JSON.stringify({
      format: TEMPLATE_EXPORT_FORMAT,
      version: 1,
      templates: [{ slug: 42, title: 'Log4Shell', severity: 'critical' }],
    })
    expect(planned(planTemplateImport({ text }, [])).rows).toEqual([
      { row: 1, slug: null, outcome: 'refused', reason: 'slug: Enter a slug' },
    ])
  })

  it('refuses CSV rows whose cells do not line up with the header', () => {
    const text = 'slug,title,severity\r\nshort,Short\r\nlong,Long,low,extra\r\nfine,Fine,low\r\n'
    expect(planned(planTemplateImport({ text }, [])).rows).toEqual([
      { row: 2, slug: null, outcome: 'refused', reason: 'The row has 2 cells; the header has 3' },
      { row: 3, slug: null, outcome: 'refused', reason: 'The row has 4 cells; the header has 3' },
      { row: 4, slug: 'fine', outcome: 'created' },
    ])
  })

  it('reads semicolon-separated CSV from spreadsheets set to a European locale', () => {
    const text = 'slug;title;severity;cwe\r\nsqli;SQL injection, classic;high;"CWE-89, CWE-564"\r\n'
    const plan = planned(planTemplateImport({ name: 'export.csv', text }, []))
    expect(plan.writes[0]?.template).toMatchObject({ slug: 'sqli', title: 'SQL injection, classic', cwe: ['CWE-89', 'CWE-564'] })
  })

  it('reads header names in any case and order', () => {
    const text = 'Severity, Title ,SLUG\nlow,Lower,lower\n'
    expect(planned(planTemplateImport({ text }, [])).writes[0]?.template).toMatchObject({ slug: 'lower', title: 'Lower', severity: 'low' })
  })
})

describe('planTemplateImport: files it cannot read', () => {
  it.each([
    ['an empty file', { text: '' }, 'The file is empty'],
    ['a blank file with a byte order mark', { text: '\uFEFF \n' }, 'The file is empty'],
    ['broken JSON', { name: 'a.json', text: '{"format":' }, expect.stringMatching(/^The file is not valid JSON \(.+\)$/)],
    [
      'JSON of something else',
      { text: '{"templates":[]}' },
      'The file is not an export of finding templates (format "bulwark.finding-templates")',
    ],
    ['a bare JSON list', { text: '[]' }, 'The file is not an export of finding templates (format "bulwark.finding-templates")'],
    [
      'a newer export version',
      { text: JSON.stringify({ format: TEMPLATE_EXPORT_FORMAT, version: 2, templates: [] }) },
      'The file is version 2 of the export format; this version of the product reads version 1',
    ],
    [
      'an export without templates',
      { text: JSON.stringify({ format: TEMPLATE_EXPORT_FORMAT, version: 1 }) },
      'The file has no list of templates',
    ],
    [
      'unknown CSV columns',
      { text: 'slug,title,severty,\nx,X,low,\n' },
      `Unknown columns: "severty", "". The columns are: ${TEMPLATE_CSV_COLUMNS.join(', ')}`,
    ],
    ['a repeated CSV column', { text: 'slug,title,Title\nx,X,Y\n' }, 'The column title appears more than once'],
    ['a CSV without slug or title', { text: 'severity,tags\nlow,xss\n' }, 'The file needs a slug or a title column'],
    [
      'an unclosed quote',
      { name: 'a.csv', text: 'slug,title\nx,"unclosed\n' },
      expect.stringMatching(/^The CSV file cannot be read at row \d+: .*quote/i),
    ],
    ['JSON named .csv', { name: 'a.csv', text: exportTemplatesJson([bare]) }, expect.stringMatching(/^Unknown columns: /)],
  ])('%s', (_label, file, error) => {
    expect(planTemplateImport(file, library)).toEqual({ ok: false, error })
  })
})

function contentOf({ createdAt: _created, updatedAt: _updated, updatedBy: _by, ...content }: FindingTemplate) {
  return content
}
