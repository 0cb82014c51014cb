import type { ReactNode } from 'react'
import { Select, SelectOptions } from '../text-field'
import { useHydrated } from '../use-hydrated'
import { AutosaveFieldFrame, describedBy, saveError, useFieldIds } from './autosave-field-frame'
import { useAutosave, type UseAutosaveOptions } from './use-autosave'

/** A choice from a list that saves itself at once: a discrete choice has no typing to wait for. */
export function AutosaveSelectField<T extends string>({
  label,
  hint,
  options,
  variant = 'text',
  ...autosave
}: Omit<UseAutosaveOptions<T>, 'variant' | 'equals'> & {
  label: string
  hint?: ReactNode
  options: readonly { value: T; label: string }[]
  variant?: 'text' | 'callback'
}) {
  const ids = useFieldIds()
  const hydrated = useHydrated()
  const field = useAutosave<T>({ ...autosave, variant })
  const error = saveError(field)
  const labelOf = (value: string) => options.find((option) => option.value === value)?.label ?? value
  return (
    <AutosaveFieldFrame ids={ids} label={label} field={field} savedText={labelOf(field.saved)} hint={hint} errors={[error]}>
      <Select
        id={ids.control}
        value={field.value}
        disabled={!hydrated}
        aria-invalid={error !== null || undefined}
        aria-describedby={describedBy(hint ? ids.hint : null, error && ids.error)}
        onChange={(event) => {
          field.type(event.target.value as T)
          field.flush()
        }}
      >
        <SelectOptions options={options} />
      </Select>
    </AutosaveFieldFrame>
  )
}
