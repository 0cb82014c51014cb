import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { cvssBaseMetrics } from '#domain/cvss.ts'
import type { TemplateCvss } from '#domain/finding-template.ts'
import { CvssField } from './cvss-field'

const render = (saved: TemplateCvss | null) => renderToString(<CvssField saved={saved} save={async () => {}} />)

/** The values of the checked radio buttons, version switch first. */
const checkedValues = (html: string) =>
  [...html.matchAll(/<input type="radio"[^>]*checked=""[^>]*value="([^"]+)"/g)].map((match) => match[1])

/** Each radio group's name, read through aria-labelledby or aria-label. */
function radioGroupNames(html: string): string[] {
  return [...html.matchAll(/role="radiogroup" (?:aria-labelledby="([^"]+)"|aria-label="([^"]+)")/g)].map(([, labelledBy, label]) => {
    if (label) return label
    const named = new RegExp(`id="${labelledBy}"[^>]*>([^<]+)<`).exec(html)
    return named?.[1] ?? 'unnamed'
  })
}

describe('CvssField', () => {
  it('shows a saved vector in the labelled text field, the builder and the score', () => {
    const html = render({ version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 })
    const id = /<label for="([^"]+)"[^>]*>CVSS vector<\/label>/.exec(html)?.[1]
    expect(html).toMatch(new RegExp(`<input id="${id}"[^>]*value="CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"`))
    expect(checkedValues(html)).toEqual(['3.1', 'N', 'L', 'N', 'N', 'U', 'H', 'H', 'H'])
    expect(html).toMatch(/Score <strong[^>]*>9.8<\/strong><span[^>]*data-severity="critical"[^>]*>Critical<\/span>/)
  })

  it('offers one named radio group per base metric of the version, under the specification’s headings', () => {
    const v31 = render(null)
    expect(radioGroupNames(v31)).toEqual(['CVSS version', ...cvssBaseMetrics['3.1'].map((metric) => metric.name)])
    const v40 = render({ version: '4.0', vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', score: 9.3 })
    expect(radioGroupNames(v40)).toEqual(['CVSS version', ...cvssBaseMetrics['4.0'].map((metric) => metric.name)])
    expect(v40).toContain('<legend>Vulnerable System Impact</legend>')
    expect(v40).toContain('<legend>Subsequent System Impact</legend>')
  })

  it('without a vector chooses no metric and has no score', () => {
    const html = render(null)
    expect(checkedValues(html)).toEqual(['3.1'])
    expect(html).toContain('No vector')
  })

  it('takes no input before the page is interactive', () => {
    const html = render(null)
    expect(html).toMatch(/<input id="[^"]+"[^>]*disabled=""/)
    expect(html).toMatch(/<fieldset[^>]*aria-label="CVSS vector builder"[^>]*disabled=""/)
  })

  it('shows a vector scored 0 as the rating None', () => {
    const html = render({ version: '3.1', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', score: 0 })
    expect(html).toMatch(/<strong[^>]*>0.0<\/strong><span[^>]*data-severity="info"[^>]*>None<\/span>/)
  })
})
