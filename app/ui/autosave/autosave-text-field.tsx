import type { InputHTMLAttributes, ReactNode } from 'react'
import styled from 'styled-components'
import { fieldControl } from '../text-field'
import { useHydrated } from '../use-hydrated'
import { AutosaveFieldFrame, describedBy, saveError, useFieldIds } from './autosave-field-frame'
import { useAutosave, type UseAutosaveOptions } from './use-autosave'

const Input = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
`

const TextArea = styled.textarea`
  ${fieldControl}
  min-height: 96px;
  padding: 10px 12px;
  resize: vertical;
  line-height: 1.5;
`

type TextOptions = Omit<UseAutosaveOptions<string>, 'variant' | 'equals'>

/**
 * A text field that saves itself: after a 250 ms pause, on Enter (one line) and when focus leaves
 * it. A refused or failed save keeps what was typed and says why under the field.
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
  const ids = useFieldIds()
  // What is typed before the page is interactive would be lost when React takes over the field.
  const hydrated = useHydrated()
  const field = useAutosave({ ...options, variant: 'text' })
  const error = saveError(field)
  const control = {
    id: ids.control,
    value: field.value,
    disabled: !hydrated,
    'aria-invalid': error !== null || undefined,
    'aria-describedby': describedBy(hint ? ids.hint : null, error && ids.error),
    onBlur: () => field.flush(),
  }
  return (
    <AutosaveFieldFrame ids={ids} label={label} field={field} savedText={field.saved} hint={hint} errors={[error]}>
      {multiline ? (
        <TextArea {...control} onChange={(event) => field.type(event.target.value)} />
      ) : (
        <Input
          {...inputProps}
          {...control}
          onChange={(event) => field.type(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') field.flush()
          }}
        />
      )}
    </AutosaveFieldFrame>
  )
}
