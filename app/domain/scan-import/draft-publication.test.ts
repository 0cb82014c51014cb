import { describe, expect, it } from 'vitest'
import { draftFindingDocument, type DraftFinding } from '../scan-drafts.ts'
import { draftPublication, type TemplateText } from './draft-publication.ts'

const draft = (id: string, extra: Partial<DraftFinding> = {}): DraftFinding => ({
  id,
  ...draftFindingDocument(
    {
      ruleId: 'ssh-weak',
      title: 'Scanner title',
      severity: 'medium',
      target: { kind: 'host', host: '10.0.0.5', port: 22 },
      description: 'Scanner description.',
      remediation: 'Scanner remediation.',
      raw: {},
    },
    'a'.repeat(64),
    'import@sectest.example',
    Date.UTC(2026, 0, 1),
  ),
  ...extra,
})

const templates = new Map<string, TemplateText>([
  [
    'ssh',
    {
      title: 'Template title',
      description: 'Template description.',
      impact: 'Impact.',
      remediation: 'Template remediation.',
      references: [],
      cwe: [],
    },
  ],
])

describe('draftPublication', () => {
  it("publishes a template's text where the analyst wrote none, and the analyst's own text over the template's", () => {
    const { observed } = draftPublication(
      [
        draft('mapped', { templateSlug: 'ssh', templateSource: 'mapping' }),
        draft('edited', {
          templateSlug: 'ssh',
          templateSource: 'mapping',
          title: 'Analyst title',
          description: 'Analyst description.',
          edited: ['title', 'description'],
        }),
        // Written empty on purpose: the analyst's empty remediation stands too.
        draft('emptied', { templateSlug: 'ssh', remediation: '', edited: ['remediation'] }),
      ],
      templates,
    )
    const byId = new Map(observed.map((o) => [o.fingerprint, o]))
    expect(byId.get('mapped')?.rewritten).toBeUndefined()
    expect(byId.get('edited')?.rewritten).toEqual({ title: 'Analyst title', description: 'Analyst description.' })
    expect(byId.get('mapped')).toMatchObject({
      title: 'Scanner title',
      description: 'Template description.',
      remediation: 'Template remediation.',
    })
    expect(byId.get('edited')).toMatchObject({
      title: 'Analyst title',
      description: 'Analyst description.',
      remediation: 'Template remediation.',
    })
    expect(byId.get('emptied')).toMatchObject({ description: 'Template description.', remediation: '' })
  })
})
