import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { alphabeticalOrderFields } from './alphabetical-order.ts'
import { TemplateSlugSchema } from './template-library-calls.ts'
import {
  type FindingTemplate,
  SEVERITIES,
  TEMPLATE_CONTENT_FIELDS,
  TEMPLATE_LIMITS,
  TEMPLATE_STATUSES,
  TemplateInputSchema,
  severityLabels,
  severityRank,
  templateFieldSchemas,
  templateIssuesMessage,
  templateStatusLabels,
} from './finding-template.ts'
import { searchRecordFromTemplate } from './template-search-record.ts'

const LOG4SHELL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H'

/** A template's output, or the message people see for it. */
function checkTemplate(value: unknown): { output: unknown } | { error: string } {
  const result = v.safeParse(TemplateInputSchema, value)
  return result.success ? { output: result.output } : { error: templateIssuesMessage(result.issues) }
}

/** A single field's output, or the message shown beside it. */
function checkField(schema: v.GenericSchema, value: unknown): { output: unknown } | { error: string } {
  const result = v.safeParse(schema, value)
  return result.success ? { output: result.output } : { error: result.issues[0].message }
}

describe('severities and statuses', () => {
  it('lists severities from most to least severe, ranked for sorting and labelled', () => {
    expect(SEVERITIES).toEqual(['critical', 'high', 'medium', 'low', 'info'])
    expect(SEVERITIES.map((severity) => severityRank[severity])).toEqual([5, 4, 3, 2, 1])
    expect(SEVERITIES.map((severity) => severityLabels[severity])).toEqual(['Critical', 'High', 'Medium', 'Low', 'Informational'])
  })

  it('lists the three template statuses, labelled', () => {
    expect(TEMPLATE_STATUSES.map((status) => templateStatusLabels[status])).toEqual(['Draft', 'Ready', 'Deprecated'])
  })
})

describe('TemplateInputSchema: a whole template', () => {
  it('needs only a slug, a title and a severity, and fills in the rest', () => {
    expect(checkTemplate({ slug: 'xss', title: 'Cross-site scripting', severity: 'high' })).toEqual({
      output: {
        slug: 'xss',
        title: 'Cross-site scripting',
        severity: 'high',
        cvss: null,
        cwe: [],
        description: '',
        impact: '',
        remediation: '',
        references: [],
        tags: [],
        services: [],
        status: 'draft',
      },
    })
  })

  it('reads every field and normalises lists and the vector', () => {
    const output = checkTemplate({
      slug: ' reflected-xss ',
      title: 'Reflected XSS',
      severity: 'medium',
      cvss: `  CVSS:3.1/C:L/AV:N/AC:L/PR:N/UI:R/S:C/I:L/A:N `,
      cwe: ['cwe-79', 'CWE-79', ' CWE-80 '],
      description: '# What\n\nInput is echoed.',
      impact: 'Session theft.',
      remediation: 'Encode output.',
      references: [' https://owasp.org/www-community/attacks/xss/ ', 'http://cwe.mitre.org/data/definitions/79.html'],
      tags: ['XSS', 'xss', 'owasp-top-10'],
      services: ['dast', 'dast', 'projectmariana'],
      status: 'ready',
    })
    expect(output).toEqual({
      output: {
        slug: 'reflected-xss',
        title: 'Reflected XSS',
        severity: 'medium',
        cvss: { version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', score: 6.1 },
        cwe: ['CWE-79', 'CWE-80'],
        description: '# What\n\nInput is echoed.',
        impact: 'Session theft.',
        remediation: 'Encode output.',
        references: ['https://owasp.org/www-community/attacks/xss/', 'http://cwe.mitre.org/data/definitions/79.html'],
        tags: ['xss', 'owasp-top-10'],
        services: ['dast', 'projectmariana'],
        status: 'ready',
      },
    })
  })

  it.each([
    ['missing required fields', { title: 'XSS' }, 'slug: Required; severity: Required'],
    ['an unknown field', { slug: 'xss', title: 'XSS', severity: 'high', score: 9 }, 'score: Unknown field'],
    ['text instead of a template', 'xss', 'A template is an object of fields'],
    ['nothing', null, 'A template is an object of fields'],
    [
      'several bad fields, one message each',
      { slug: 'XSS!', title: '', severity: 'severe', tags: ['ok', 'Not OK', 'also bad!'] },
      'slug: A slug is lowercase letters and digits joined by single hyphens, like sql-injection; title: Enter a title; severity: Choose a severity: critical, high, medium, low, info; tags: "not ok" is not a tag: use lowercase words joined by hyphens, like sql-injection',
    ],
  ])('refuses %s', (_label, value, error) => {
    expect(checkTemplate(value)).toEqual({ error })
  })

  it('lists the content fields in export order', () => {
    expect(TEMPLATE_CONTENT_FIELDS).toEqual([
      'slug',
      'title',
      'severity',
      'cvss',
      'cwe',
      'description',
      'impact',
      'remediation',
      'references',
      'tags',
      'services',
      'status',
    ])
  })
})

type FieldCase = readonly [label: string, value: unknown, expected: { output: unknown } | { error: string }]

const ok = (output: unknown) => ({ output })
const refused = (error: string) => ({ error })
const times = (count: number, make: (index: number) => string) => Array.from({ length: count }, (_, index) => make(index))

const fieldCases: Record<keyof typeof templateFieldSchemas | 'slug', readonly FieldCase[]> = {
  slug: [
    ['a slug', 'sql-injection', ok('sql-injection')],
    ['digits', 'cve-2021-44228', ok('cve-2021-44228')],
    ['the longest slug', 'a'.repeat(TEMPLATE_LIMITS.slugLength), ok('a'.repeat(TEMPLATE_LIMITS.slugLength))],
    [
      'a slug one too long',
      'a'.repeat(TEMPLATE_LIMITS.slugLength + 1),
      refused(`Keep the slug to ${TEMPLATE_LIMITS.slugLength} characters`),
    ],
    ['an empty slug', '', refused('Enter a slug')],
    ['uppercase', 'SQL-injection', refused('A slug is lowercase letters and digits joined by single hyphens, like sql-injection')],
    ['a double hyphen', 'sql--injection', refused('A slug is lowercase letters and digits joined by single hyphens, like sql-injection')],
    ['a leading hyphen', '-sql', refused('A slug is lowercase letters and digits joined by single hyphens, like sql-injection')],
    ['a slash', 'a/b', refused('A slug is lowercase letters and digits joined by single hyphens, like sql-injection')],
    ['a dot segment', '..', refused('A slug is lowercase letters and digits joined by single hyphens, like sql-injection')],
    ['a number', 7, refused('Enter a slug')],
  ],
  title: [
    ['a title', 'SQL injection in login', ok('SQL injection in login')],
    ['a title being typed, with its trailing space', 'SQL ', ok('SQL ')],
    ['unicode', 'Überprüfung — 検証 🔒', ok('Überprüfung — 検証 🔒')],
    ['the longest title', 'x'.repeat(TEMPLATE_LIMITS.titleLength), ok('x'.repeat(TEMPLATE_LIMITS.titleLength))],
    [
      'a title one too long',
      'x'.repeat(TEMPLATE_LIMITS.titleLength + 1),
      refused(`Keep the title to ${TEMPLATE_LIMITS.titleLength} characters`),
    ],
    ['an empty title', '', refused('Enter a title')],
    ['a blank title', ' \t ', refused('Enter a title')],
    ['two lines', 'SQL\ninjection', refused('Keep the title on one line')],
    ['not text', ['XSS'], refused('Enter a title')],
  ],
  severity: [
    ...SEVERITIES.map((severity) => [severity, severity, ok(severity)] as const),
    ['an unknown severity', 'severe', refused('Choose a severity: critical, high, medium, low, info')],
    ['a label instead of the id', 'Critical', refused('Choose a severity: critical, high, medium, low, info')],
  ],
  cvss: [
    ['no vector', null, ok(null)],
    ['a cleared field', '  ', ok(null)],
    ['a typed vector', ` ${LOG4SHELL} `, ok({ version: '3.1', vector: LOG4SHELL, score: 10 })],
    [
      'a 4.0 vector',
      'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
      ok({ version: '4.0', vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', score: 9.3 }),
    ],
    ['an exported vector', { version: '3.1', vector: LOG4SHELL, score: 10 }, ok({ version: '3.1', vector: LOG4SHELL, score: 10 })],
    [
      'a vector with its score as spreadsheet text',
      { vector: LOG4SHELL, score: '10.0' },
      ok({ version: '3.1', vector: LOG4SHELL, score: 10 }),
    ],
    ['a vector alone in an object', { vector: LOG4SHELL }, ok({ version: '3.1', vector: LOG4SHELL, score: 10 })],
    [
      'a score the vector does not have',
      { vector: LOG4SHELL, score: 9.8 },
      refused('The score 9.8 does not match the vector, which scores 10'),
    ],
    ['a version the vector does not have', { version: '4.0', vector: LOG4SHELL }, refused('The vector is CVSS 3.1, not 4.0')],
    [
      'an unsupported version',
      'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      refused('CVSS 3.0 is not supported: use a CVSS 3.1 or 4.0 vector'),
    ],
    [
      'an incomplete vector',
      'CVSS:3.1/AV:N',
      refused(
        'Missing base metrics: AC (Attack Complexity), PR (Privileges Required), UI (User Interaction), S (Scope), C (Confidentiality Impact), I (Integrity Impact), A (Availability Impact)',
      ),
    ],
    ['a number', 9.8, refused('Give the CVSS vector as text, such as CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')],
    [
      'an object with a severity',
      { vector: LOG4SHELL, severity: 'critical' },
      refused('Give the CVSS vector as text, such as CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'),
    ],
  ],
  cwe: [
    ['CWE ids', ['CWE-79', 'CWE-89'], ok(['CWE-79', 'CWE-89'])],
    ['lowercase, repeated', ['cwe-1021', 'CWE-1021'], ok(['CWE-1021'])],
    ['none', [], ok([])],
    [
      'as many as allowed',
      times(TEMPLATE_LIMITS.cweCount, (index) => `CWE-${index + 1}`),
      ok(times(TEMPLATE_LIMITS.cweCount, (index) => `CWE-${index + 1}`)),
    ],
    [
      'one too many',
      times(TEMPLATE_LIMITS.cweCount + 1, (index) => `CWE-${index + 1}`),
      refused(`List at most ${TEMPLATE_LIMITS.cweCount} CWE ids`),
    ],
    ['a bare number', ['79'], refused('"79" is not a CWE id: write it like CWE-79')],
    ['a leading zero', ['CWE-079'], refused('"CWE-079" is not a CWE id: write it like CWE-79')],
    ['a name instead of an id', ['XSS'], refused('"XSS" is not a CWE id: write it like CWE-79')],
    ['text instead of a list', 'CWE-79', refused('List the CWE ids')],
  ],
  description: [
    ['Markdown', '# Title\n\n- item\n\n```\ncode\n```\n', ok('# Title\n\n- item\n\n```\ncode\n```\n')],
    ['nothing', '', ok('')],
    ['the longest text', 'x'.repeat(TEMPLATE_LIMITS.markdownLength), ok('x'.repeat(TEMPLATE_LIMITS.markdownLength))],
    [
      'one character too many',
      'x'.repeat(TEMPLATE_LIMITS.markdownLength + 1),
      refused(`Keep the description to ${TEMPLATE_LIMITS.markdownLength} characters`),
    ],
    ['not text', null, refused('Write the description as text')],
  ],
  impact: [
    ['Markdown', '**Account takeover**', ok('**Account takeover**')],
    [
      'one character too many',
      'x'.repeat(TEMPLATE_LIMITS.markdownLength + 1),
      refused(`Keep the impact to ${TEMPLATE_LIMITS.markdownLength} characters`),
    ],
  ],
  remediation: [
    ['Markdown', '1. Patch\n2. Rotate keys', ok('1. Patch\n2. Rotate keys')],
    [
      'one character too many',
      'x'.repeat(TEMPLATE_LIMITS.markdownLength + 1),
      refused(`Keep the remediation to ${TEMPLATE_LIMITS.markdownLength} characters`),
    ],
  ],
  references: [
    [
      'web addresses',
      ['https://owasp.org/Top10/', 'http://example.com/a?b=1;c=2'],
      ok(['https://owasp.org/Top10/', 'http://example.com/a?b=1;c=2']),
    ],
    ['a repeated address', ['https://cwe.mitre.org/', ' https://cwe.mitre.org/'], ok(['https://cwe.mitre.org/'])],
    [
      'as many as allowed',
      times(TEMPLATE_LIMITS.referenceCount, (index) => `https://example.com/${index}`),
      ok(times(TEMPLATE_LIMITS.referenceCount, (index) => `https://example.com/${index}`)),
    ],
    [
      'one too many',
      times(TEMPLATE_LIMITS.referenceCount + 1, (index) => `https://example.com/${index}`),
      refused(`List at most ${TEMPLATE_LIMITS.referenceCount} references`),
    ],
    [
      'an address one character too long',
      [`https://example.com/${'a'.repeat(TEMPLATE_LIMITS.referenceLength - 19)}`],
      refused(`Keep each reference to ${TEMPLATE_LIMITS.referenceLength} characters`),
    ],
    [
      'javascript:',
      ['javascript:alert(1)'],
      refused('"javascript:alert(1)" is not a web address: references start with https:// or http://'),
    ],
    ['data:', ['data:text/html,hi'], refused('"data:text/html,hi" is not a web address: references start with https:// or http://')],
    [
      'ftp',
      ['ftp://example.com/file'],
      refused('"ftp://example.com/file" is not a web address: references start with https:// or http://'),
    ],
    ['a host without a scheme', ['owasp.org'], refused('"owasp.org" is not a web address: references start with https:// or http://')],
    ['a scheme without a host', ['https://'], refused('"https://" is not a web address: references start with https:// or http://')],
  ],
  tags: [
    ['tags', ['sql-injection', 'owasp-a03'], ok(['sql-injection', 'owasp-a03'])],
    ['uppercase, repeated', ['XSS', ' xss '], ok(['xss'])],
    [
      'as many as allowed',
      times(TEMPLATE_LIMITS.tagCount, (index) => `tag-${index}`),
      ok(times(TEMPLATE_LIMITS.tagCount, (index) => `tag-${index}`)),
    ],
    [
      'one too many',
      times(TEMPLATE_LIMITS.tagCount + 1, (index) => `tag-${index}`),
      refused(`Use at most ${TEMPLATE_LIMITS.tagCount} tags`),
    ],
    ['the longest tag', ['a'.repeat(TEMPLATE_LIMITS.tagLength)], ok(['a'.repeat(TEMPLATE_LIMITS.tagLength)])],
    [
      'a tag one too long',
      ['a'.repeat(TEMPLATE_LIMITS.tagLength + 1)],
      refused(`Keep the tag "${'a'.repeat(TEMPLATE_LIMITS.tagLength + 1)}" to ${TEMPLATE_LIMITS.tagLength} characters`),
    ],
    ['a space', ['sql injection'], refused('"sql injection" is not a tag: use lowercase words joined by hyphens, like sql-injection')],
    ['an empty tag', [''], refused('"" is not a tag: use lowercase words joined by hyphens, like sql-injection')],
    ['punctuation', ['c#'], refused('"c#" is not a tag: use lowercase words joined by hyphens, like sql-injection')],
  ],
  services: [
    ['services', ['dast', 'network'], ok(['dast', 'network'])],
    [
      'every service',
      ['projectmariana', 'password_cracking', 'dast', 'network', 'cloud'],
      ok(['projectmariana', 'password_cracking', 'dast', 'network', 'cloud']),
    ],
    ['a repeated service', ['cloud', 'cloud'], ok(['cloud'])],
    [
      'an analyst page slug',
      ['password-cracking'],
      refused('"password-cracking" is not a service: use projectmariana, password_cracking, dast, network, cloud'),
    ],
    ['a label', ['DAST'], refused('"DAST" is not a service: use projectmariana, password_cracking, dast, network, cloud')],
  ],
  status: [
    ...TEMPLATE_STATUSES.map((status) => [status, status, ok(status)] as const),
    ['an unknown status', 'published', refused('Choose a status: draft, ready, deprecated')],
  ],
}

describe('templateFieldSchemas: each field as autosaved', () => {
  const schemaOf = (field: keyof typeof fieldCases) => (field === 'slug' ? TemplateSlugSchema : templateFieldSchemas[field])

  it('has a schema for every content field but the slug, which names the document', () => {
    expect(Object.keys(templateFieldSchemas).sort()).toEqual(TEMPLATE_CONTENT_FIELDS.filter((field) => field !== 'slug').sort())
  })

  describe.each(Object.entries(fieldCases))('%s', (field, cases) => {
    it.each(cases)('%s', (_label, value, expected) => {
      expect(checkField(schemaOf(field as keyof typeof fieldCases), value)).toEqual(expected)
    })
  })
})

describe('searchRecordFromTemplate', () => {
  const template: FindingTemplate = {
    slug: 'log4shell',
    title: 'Log4Shell remote code execution',
    severity: 'critical',
    cvss: { version: '3.1', vector: LOG4SHELL, score: 10 },
    cwe: ['CWE-502', 'CWE-917'],
    description:
      '## Summary\n\nThe **JNDI** lookup in [Log4j](https://logging.apache.org) runs `${jndi:ldap://x}`.\n\n<script>x()</script>',
    impact: 'Full compromise.',
    remediation: 'Upgrade.',
    references: ['https://nvd.nist.gov/vuln/detail/CVE-2021-44228'],
    tags: ['rce', 'java'],
    services: ['dast', 'network'],
    status: 'ready',
    createdAt: Date.UTC(2021, 11, 10),
    updatedAt: Date.UTC(2024, 0, 2, 3, 4, 5),
    updatedBy: 'analyst@example.com',
  }

  it('indexes the template under its slug with the fields search filters and sorts on', () => {
    expect(searchRecordFromTemplate(template)).toEqual({
      objectID: 'log4shell',
      title: 'Log4Shell remote code execution',
      severity: 'critical',
      severityRank: 5,
      cvssScore: 10,
      cwe: ['CWE-502', 'CWE-917'],
      tags: ['rce', 'java'],
      services: ['dast', 'network'],
      status: 'ready',
      excerpt: 'Summary The JNDI lookup in Log4j runs ${jndi:ldap://x}.',
      updatedAt: 1704164645000,
      ...alphabeticalOrderFields('title', 'Log4Shell remote code execution'),
    })
  })

  it('has no score without a vector and ranks each severity', () => {
    expect(searchRecordFromTemplate({ ...template, cvss: null, severity: 'info' })).toMatchObject({ cvssScore: null, severityRank: 1 })
  })

  it('cuts a long description after the last whole word that fits', () => {
    // 25 × "lorem ipsum" joined by spaces is 299 characters: with the ellipsis, exactly the limit.
    expect(searchRecordFromTemplate({ ...template, description: 'lorem ipsum '.repeat(100) }).excerpt).toBe(
      `${'lorem ipsum '.repeat(25).trimEnd()}…`,
    )
    expect(searchRecordFromTemplate({ ...template, description: `${'a'.repeat(290)} abcdefghijkl tail` }).excerpt).toBe(
      `${'a'.repeat(290)}…`,
    )
  })

  it('cuts a description without spaces at the limit', () => {
    const { excerpt } = searchRecordFromTemplate({ ...template, description: 'x'.repeat(1000) })
    expect(excerpt).toBe(`${'x'.repeat(TEMPLATE_LIMITS.excerptLength - 1)}…`)
  })
})
