import { useId, type InputHTMLAttributes } from 'react'
import styled, { css } from 'styled-components'

/** A label above its control. */
export const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
  /* A field in a row of fields may shrink to the row's width, its control with it. */
  min-width: 0;
  max-width: 100%;
`

export const Label = styled.label`
  font-weight: 600;
  font-size: 14px;
`

/** The look of text inputs and text areas. */
export const fieldControl = css`
  border-radius: 8px;
  border: 1px solid var(--color-border);
  background: var(--color-surface);
  color: var(--color-text);
  font: inherit;

  &[aria-invalid='true'] {
    border-color: var(--color-danger);
  }
`

/** A native select with the look of the text fields. */
export const Select = styled.select`
  ${fieldControl}
  min-height: 40px;
  padding: 0 10px;
  /* A long option (a scan's title, a scope's targets) is cut in the closed box, never widens the page. */
  max-width: 100%;
  text-overflow: ellipsis;
`

const Input = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
`

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string }

/** The options of a select, each a value and what the person reads. */
export function SelectOptions({ options }: { options: readonly { value: string; label: string }[] }) {
  return options.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ))
}

export function TextField({ label, ...input }: TextFieldProps) {
  const id = useId()
  return (
    <Field>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...input} />
    </Field>
  )
}

/** A result line under a form: success is announced politely, errors at once. */
export const FormMessage = styled.p.attrs<{ $tone: 'success' | 'error' }>(({ $tone }) => ({
  role: $tone === 'error' ? 'alert' : 'status',
}))<{ $tone: 'success' | 'error' }>`
  margin: 0;
  font-size: 14px;
  color: ${({ $tone }) => ($tone === 'error' ? 'var(--color-danger)' : 'var(--color-success)')};
`
