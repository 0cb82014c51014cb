import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { SEVERITIES, severityLabels } from '#domain/finding-template.ts'
import { SeverityBadge } from './severity-badge'

describe('SeverityBadge', () => {
  it('names each severity in words, not by colour alone', () => {
    for (const severity of SEVERITIES) {
      const html = renderToString(<SeverityBadge severity={severity} />)
      expect(html).toContain(`data-severity="${severity}"`)
      expect(html).toContain(`>${severityLabels[severity]}</span>`)
    }
  })

  it('takes another name for the same look, such as the CVSS rating None', () => {
    const html = renderToString(<SeverityBadge severity="info" label="None" />)
    expect(html).toContain('data-severity="info"')
    expect(html).toContain('>None</span>')
  })
})
