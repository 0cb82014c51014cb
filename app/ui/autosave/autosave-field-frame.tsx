import { useId, type ReactNode } from 'react'
import styled from 'styled-components'
import { Field, FormMessage, Label } from '../text-field'
import { colors } from '../theme'
import { AutosaveStatus } from './autosave-status'
import type { Autosave } from './use-autosave'

const LabelRow = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  flex-wrap: wrap;
`

const Hint = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${colors.textMuted};
`

const Messages = styled(FormMessage)`
  display: grid;
  gap: 2px;
`

/** The ids that tie a field's control to its hint and error. */
export interface FieldIds {
  control: string
  hint: string
  error: string
}

export function useFieldIds(): FieldIds {
  const id = useId()
  return { control: id, hint: `${id}-hint`, error: `${id}-error` }
}

/**
 * The reason the value is not saved, while it stands: once the person edits again it gives way to
 * the spinner until the next save says otherwise, so a stale message never sits under a new value.
 */
export const saveError = (field: Pick<Autosave<unknown>, 'status' | 'error'>) => (field.status === 'failed' ? field.error : null)

/** An aria-describedby value from the ids of what is shown; undefined when nothing is. */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  return ids.filter(Boolean).join(' ') || undefined
}

/**
 * What every autosaved field has around its control: the label with the save status beside it,
 * then the control, a hint and the reasons it is not saved.
 */
export function AutosaveFieldFrame({
  ids,
  label,
  field,
  savedText,
  hint,
  errors,
  children,
}: {
  ids: FieldIds
  label: string
  field: Pick<Autosave<unknown>, 'status' | 'accept' | 'reject'>
  /** The value saved elsewhere, in words, for the conflict prompt. */
  savedText: string
  hint?: ReactNode
  errors: readonly (string | null)[]
  children: ReactNode
}) {
  const shown = errors.filter((error) => error !== null)
  return (
    <Field>
      <LabelRow>
        <Label htmlFor={ids.control}>{label}</Label>
        <AutosaveStatus status={field.status} saved={savedText} onAccept={field.accept} onReject={field.reject} />
      </LabelRow>
      {children}
      {hint && <Hint id={ids.hint}>{hint}</Hint>}
      {shown.length > 0 && (
        <Messages id={ids.error} $tone="error">
          {shown.map((error) => (
            <span key={error}>{error}</span>
          ))}
        </Messages>
      )}
    </Field>
  )
}
