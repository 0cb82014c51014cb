// A company's eight service switches as one autosaved field (the autosave of decision 0010: spinner, refresh
// alert on someone else's change, check, cross). Each save sends only the switches that differ
// from the live document, so two people switching different services both keep their change.
import { COMPANY_FLAGS, type CompanyFlag } from '#domain/access.ts'
import { COMPANY_FLAG_LABELS } from '#domain/company-admin.ts'
import { CheckboxGrid } from '~/ui/checkbox-grid'
import { AutosaveFieldFrame, describedBy, saveError, useFieldIds } from '~/ui/autosave/autosave-field-frame'
import { useAutosave } from '~/ui/autosave/use-autosave'
import { useHydrated } from '~/ui/use-hydrated'

export type FlagValues = Record<CompanyFlag, boolean>

const sameFlags = (a: FlagValues, b: FlagValues) => COMPANY_FLAGS.every((flag) => a[flag] === b[flag])

export const errorText = (error: unknown) => (error instanceof Error ? error.message : 'The change was not saved: try again.')

export function FlagsField({ saved, save }: { saved: FlagValues; save(changes: Partial<FlagValues>): Promise<void> }) {
  const ids = useFieldIds()
  const hydrated = useHydrated()
  const field = useAutosave<FlagValues>({
    variant: 'text',
    saved,
    equals: sameFlags,
    describeError: errorText,
    save: (value) =>
      save(Object.fromEntries(COMPANY_FLAGS.filter((flag) => value[flag] !== saved[flag]).map((flag) => [flag, value[flag]]))),
  })
  const error = saveError(field)
  const on = COMPANY_FLAGS.filter((flag) => field.saved[flag]).map((flag) => COMPANY_FLAG_LABELS[flag])
  return (
    <AutosaveFieldFrame ids={ids} label="Services" field={field} savedText={on.join(', ') || 'none'} errors={[error]}>
      <CheckboxGrid id={ids.control} role="group" aria-label="Services" aria-describedby={describedBy(error && ids.error)}>
        {COMPANY_FLAGS.map((flag) => (
          <label key={flag}>
            <input
              type="checkbox"
              disabled={!hydrated}
              checked={field.value[flag]}
              onChange={(event) => field.type({ ...field.value, [flag]: event.target.checked })}
            />
            {COMPANY_FLAG_LABELS[flag]}
          </label>
        ))}
      </CheckboxGrid>
    </AutosaveFieldFrame>
  )
}
