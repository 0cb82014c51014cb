import { Tabs } from 'radix-ui'
import { useState } from 'react'
import styled from 'styled-components'
import { formatNumber } from '#domain/numbers.ts'
import { useAutosave } from '~/ui/autosave/use-autosave'
import { fieldControl } from '~/ui/text-field'
import { colors, fonts } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { AutosaveFieldFrame, describedBy, saveError, useFieldIds } from '~/ui/autosave/autosave-field-frame'
import { MarkdownContent } from '~/ui/markdown-content'

type MarkdownTab = 'write' | 'preview'

const Editor = styled(Tabs.Root)`
  display: grid;
  gap: 6px;
`

const TabList = styled(Tabs.List)`
  display: flex;
  gap: 4px;
`

const Tab = styled(Tabs.Trigger)`
  min-height: 32px;
  padding: 0 14px;
  border: 1px solid transparent;
  border-radius: 7px;
  background: none;
  color: ${colors.textMuted};
  font: inherit;
  font-size: 14px;
  font-weight: 600;
  cursor: pointer;

  &[data-state='active'] {
    border-color: ${colors.border};
    background: ${colors.surface};
    color: ${colors.text};
  }
  &:hover {
    color: ${colors.text};
  }
`

const TextArea = styled.textarea`
  ${fieldControl}
  display: block;
  width: 100%;
  min-height: 200px;
  padding: 10px 12px;
  resize: vertical;
  font-family: ${fonts.mono};
  font-size: 14px;
  line-height: 1.5;
`

const Preview = styled(Tabs.Content)`
  ${fieldControl}
  min-height: 200px;
  padding: 12px 14px;
`

const Nothing = styled.p`
  margin: 0;
  color: ${colors.textMuted};
`

const Count = styled.p<{ $over: boolean }>`
  margin: 0;
  align-self: flex-end;
  font-size: 13px;
  font-variant-numeric: tabular-nums;
  color: ${({ $over }) => ($over ? colors.danger : colors.textMuted)};
`

/** The start of a text on one line, for the prompt that names a value saved elsewhere. */
const CONFLICT_EXCERPT_LENGTH = 80
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > CONFLICT_EXCERPT_LENGTH ? `${line.slice(0, CONFLICT_EXCERPT_LENGTH - 1)}…` : line
}

/**
 * A template's Markdown text (description, impact, remediation) that saves itself, with a preview
 * of how it reads. The text area stays mounted behind the preview, so its undo history survives.
 */
export function MarkdownField({
  label,
  saved,
  save,
  maxLength,
}: {
  label: string
  saved: string
  save(value: string): Promise<void>
  maxLength: number
}) {
  const ids = useFieldIds()
  const countId = `${ids.control}-count`
  const [tab, setTab] = useState<MarkdownTab>('write')
  // What is typed before the page is interactive would be lost when React takes over the field.
  const hydrated = useHydrated()
  const field = useAutosave({
    variant: 'text',
    saved,
    save,
    validate: (text) => (text.length > maxLength ? `Keep the ${label.toLowerCase()} to ${formatNumber(maxLength)} characters` : null),
  })
  const error = saveError(field)
  return (
    <AutosaveFieldFrame ids={ids} label={label} field={field} savedText={excerpt(field.saved)} errors={[error]}>
      <Editor value={tab} onValueChange={(value) => setTab(value === 'preview' ? 'preview' : 'write')}>
        <TabList aria-label={`${label}: write or preview`}>
          <Tab value="write">Write</Tab>
          <Tab value="preview">Preview</Tab>
        </TabList>
        {/* The text area is the panel's only content: focus goes to it, not to the panel. */}
        <Tabs.Content value="write" forceMount hidden={tab !== 'write'} tabIndex={-1}>
          <TextArea
            id={ids.control}
            value={field.value}
            disabled={!hydrated}
            aria-invalid={error !== null || undefined}
            aria-describedby={describedBy(countId, error && ids.error)}
            onChange={(event) => field.type(event.target.value)}
            onBlur={() => field.flush()}
          />
        </Tabs.Content>
        <Preview value="preview">
          {field.value.trim() === '' ? <Nothing>Nothing to preview yet.</Nothing> : <MarkdownContent source={field.value} />}
        </Preview>
      </Editor>
      <Count id={countId} $over={field.value.length > maxLength}>
        {formatNumber(field.value.length)} / {formatNumber(maxLength)} characters
      </Count>
    </AutosaveFieldFrame>
  )
}
