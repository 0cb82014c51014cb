// The analyst's own title, description and remediation of one draft finding, in its detail panel.
// Only the fields changed are sent; what they write is published instead of the scanner's or a
// template's text. Saving the same text again writes nothing, so an answer that did not come is
// simply asked again (callUntilKnown).
import { useId, useState } from 'react'
import styled from 'styled-components'
import { DRAFT_TEXT_FIELDS, type DraftFinding, type DraftTextField } from '#domain/scan-drafts.ts'
import { callUntilKnown, writeCheckMessages } from '~/core/call-until-known'
import { Button } from '~/ui/button'
import { Field, FormMessage, Label, fieldControl } from '~/ui/text-field'
import { callAnalyst, failureMessage } from './analyst-calls'
import { Muted, Toolbar } from './parts'

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: 12px;
  margin: 0 0 18px;

  input,
  textarea {
    ${fieldControl}
    padding: 8px 12px;
    width: 100%;
    box-sizing: border-box;
  }
  input {
    min-height: 40px;
  }
  textarea {
    min-height: 96px;
    resize: vertical;
  }
  small {
    color: var(--color-text-muted);
  }
`

const labels: Record<DraftTextField, string> = { title: 'Title', description: 'Description', remediation: 'Remediation' }

type Text = Record<DraftTextField, string>
const textOf = (finding: DraftFinding): Text => ({
  title: finding.title,
  description: finding.description,
  remediation: finding.remediation,
})

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'checking' } | { state: 'saved' } | { state: 'failed'; message: string }

export function DraftTextForm({ company, scanId, finding }: { company: string; scanId: string; finding: DraftFinding }) {
  const id = useId()
  // Only what the analyst typed; the other fields show the stored text as it changes (live).
  const [edits, setEdits] = useState<Partial<Text>>({})
  const [saving, setSaving] = useState<Saving>({ state: 'idle' })
  const stored = textOf(finding)
  const text: Text = { ...stored, ...edits }
  const changed = DRAFT_TEXT_FIELDS.filter((field) => text[field].trim() !== stored[field])
  const busy = saving.state === 'saving' || saving.state === 'checking'
  const titleMissing = text.title.trim() === ''

  async function save() {
    if (changed.length === 0 || titleMissing) return
    const review = { kind: 'text' as const, ...Object.fromEntries(changed.map((field) => [field, text[field]])) }
    setSaving({ state: 'saving' })
    try {
      await callUntilKnown(() => callAnalyst('reviewDraftFindings', { company, scanId, findingIds: [finding.id], review }), {
        onChecking: () => setSaving({ state: 'checking' }),
      })
      setSaving({ state: 'saved' })
    } catch (failure) {
      setSaving({ state: 'failed', message: await failureMessage(failure) })
    }
  }

  // The template's text is published for a field the analyst has not written.
  const fromTemplate = (field: DraftTextField) =>
    field !== 'title' && finding.templateSlug && !finding.edited.includes(field)
      ? `Published from the template ${finding.templateSlug} unless you change it.`
      : null

  return (
    <Form
      aria-label="Text of this finding"
      onSubmit={(event) => {
        event.preventDefault()
        void save()
      }}
    >
      {DRAFT_TEXT_FIELDS.map((field) => {
        const control = `${id}-${field}`
        const note = fromTemplate(field)
        const props = {
          id: control,
          value: text[field],
          disabled: busy,
          'aria-invalid': field === 'title' && titleMissing ? true : undefined,
          'aria-describedby': note ? `${control}-note` : undefined,
          onChange: (event: { target: { value: string } }) => {
            setEdits((current) => ({ ...current, [field]: event.target.value }))
            if (saving.state === 'saved' || saving.state === 'failed') setSaving({ state: 'idle' })
          },
        }
        return (
          <Field key={field}>
            <Label htmlFor={control}>
              {labels[field]}
              {finding.edited.includes(field) && <small> (yours)</small>}
            </Label>
            {field === 'title' ? <input {...props} required maxLength={2_048} /> : <textarea {...props} rows={4} />}
            {note && <small id={`${control}-note`}>{note}</small>}
          </Field>
        )
      })}
      <Toolbar>
        <Button type="submit" disabled={busy || changed.length === 0 || titleMissing}>
          {busy ? 'Saving…' : 'Save text'}
        </Button>
        {titleMissing && <Muted>A finding needs a title.</Muted>}
        {saving.state === 'checking' && <Muted role="status">{writeCheckMessages.checking}</Muted>}
        {saving.state === 'saved' && <FormMessage $tone="success">Saved</FormMessage>}
        {saving.state === 'failed' && <FormMessage $tone="error">{saving.message}</FormMessage>}
      </Toolbar>
    </Form>
  )
}
