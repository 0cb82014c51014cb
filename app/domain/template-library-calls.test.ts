import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { slugifyTitle, TEMPLATE_SLUG_MAX_LENGTH, TemplateSlugSchema } from './template-library-calls.ts'

describe('slugifyTitle', () => {
  it.each([
    ['SQL Injection in Login Form', 'sql-injection-in-login-form'],
    ['  Cross-Site   Scripting (XSS)!  ', 'cross-site-scripting-xss'],
    ['Crème brûlée — “Ünïcödé” XSS', 'creme-brulee-unicode-xss'],
    ['ﬁle upload via ＡＰＩ', 'file-upload-via-api'],
    ['CVE-2021-44228: Log4Shell', 'cve-2021-44228-log4shell'],
    ['word '.repeat(30), `${'word-'.repeat(15)}word`],
    ['a'.repeat(120), 'a'.repeat(TEMPLATE_SLUG_MAX_LENGTH)],
  ])('%s → %s', (title, slug) => {
    expect(slugifyTitle(title)).toBe(slug)
  })

  it('cuts at a word boundary within the slug length and gives a valid slug', () => {
    const slug = slugifyTitle('Insecure direct object reference '.repeat(10))
    expect(slug.length).toBeLessThanOrEqual(TEMPLATE_SLUG_MAX_LENGTH)
    expect(slug.endsWith('-')).toBe(false)
    expect('insecure direct object reference '.repeat(10)).toContain(slug.replaceAll('-', ' '))
    expect(v.safeParse(TemplateSlugSchema, slug).success).toBe(true)
  })

  it('gives titles without Latin letters or digits a stable fingerprint slug', () => {
    const japanese = slugifyTitle('クロスサイトスクリプティング')
    expect(japanese).toMatch(/^template-[a-z0-9]+$/)
    expect(slugifyTitle('クロスサイトスクリプティング')).toBe(japanese)
    expect(slugifyTitle('SQLインジェクション')).toBe('sql')
    expect(slugifyTitle('パストラバーサル')).not.toBe(japanese)
    expect(v.safeParse(TemplateSlugSchema, japanese).success).toBe(true)
  })
})
