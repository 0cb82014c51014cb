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

type TextOptions = Omit<UseAutosaveOptions<string>, 'variant' | 'equals'>

/**
 * A one-line text field that saves itself: after a 250 ms pause, on Enter and when focus leaves
 * it. A refused or failed save keeps what was typed and says why under the field.
 */
export function AutosaveTextField({
  label,
  hint,
  inputProps,
  ...options
}: TextOptions & {
  label: string
  hint?: ReactNode
  inputProps?: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'>
}) {
  const ids = useFieldIds()
  // What is typed before the page is interactive would be lost when React takes over the field.
  const hydrated = useHydrated()
  const field = useAutosave({ ...options, variant: 'text' })
  const error = saveError(field)
  return (
    <AutosaveFieldFrame ids={ids} label={label} field={field} savedText={field.saved} hint={hint} errors={[error]}>
      <Input
        {...inputProps}
        id={ids.control}
        value={field.value}
        disabled={!hydrated}
        aria-invalid={error !== null || undefined}
        aria-describedby={describedBy(hint ? ids.hint : null, error && ids.error)}
        onChange={(event) => field.type(event.target.value)}
        onBlur={() => field.flush()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') field.flush()
        }}
      />
    </AutosaveFieldFrame>
  )
}
