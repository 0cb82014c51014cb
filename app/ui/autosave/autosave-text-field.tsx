import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import styled from 'styled-components'
import { Field, fieldControl, FormMessage, Label } from '../text-field'
import { useHydrated } from '../use-hydrated'
import { AutosaveStatus } from './autosave-status'
import { useAutosave, type UseAutosaveOptions } from './use-autosave'

const LabelRow = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
`

const Input = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
`

const TextArea = styled.textarea`
  ${fieldControl}
  min-height: 120px;
  padding: 10px 12px;
  resize: vertical;
  line-height: 1.5;
`

const Hint = styled.p`
  margin: 0;
  font-size: 13px;
  color: var(--color-text-muted);
`

type TextOptions = Omit<UseAutosaveOptions<string>, 'variant' | 'equals'>

/**
 * A text field that saves itself: after a 250 ms pause, on Enter (single line) and when focus
 * leaves it. A refused or failed save keeps what was typed and says why under the field.
 */
export function AutosaveTextField({
  label,
  hint,
  multiline = false,
  inputProps,
  ...options
}: TextOptions & {
  label: string
  hint?: ReactNode
  multiline?: boolean
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'>
}) {
  const id = useId()
  // What is typed before the page is interactive would be lost when React takes over the field.
  const hydrated = useHydrated()
  const field = useAutosave({ ...options, variant: 'text' })
  const described = [hint ? `${id}-hint` : null, field.error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
  const common = {
    id,
    value: field.value,
    disabled: !hydrated,
    'aria-invalid': field.status === 'failed' || undefined,
    'aria-describedby': described,
    onBlur: () => field.flush(),
  }
  return (
    <Field>
      <LabelRow>
        <Label htmlFor={id}>{label}</Label>
        <AutosaveStatus status={field.status} saved={field.saved} onAccept={field.accept} onReject={field.reject} />
      </LabelRow>
      {multiline ? (
        <TextArea {...common} onChange={(event) => field.type(event.target.value)} />
      ) : (
        <Input
          {...inputProps}
          {...common}
          onChange={(event) => field.type(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') field.flush()
          }}
        />
      )}
      {hint && <Hint id={`${id}-hint`}>{hint}</Hint>}
      {field.error && (
        <FormMessage id={`${id}-error`} $tone="error">
          {field.error}
        </FormMessage>
      )}
    </Field>
  )
}
