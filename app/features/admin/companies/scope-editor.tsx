// A scan scope as a list: each entry with its kind, removed after a confirmation, and a form that
// adds one entry, checked by the same schema (and messages) as the server.
import { useState } from 'react'
import { IconTrash } from '@tabler/icons-react'
import * as v from 'valibot'
import styled from 'styled-components'
import {
  guessScopeKind,
  SCOPE_KIND_LABELS,
  SCOPE_KINDS,
  ScopeEntrySchema,
  scopeEntryKey,
  type ScopeEntry,
  type ScopeKind,
} from '#domain/scan-scope.ts'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { Field, fieldControl, FormMessage, Label, Select, SelectOptions } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { Muted } from '../org/org-section'

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;

  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 12px;
    padding: 6px 0;
    border-top: 1px solid var(--color-border);
  }
  code {
    font-size: 14px;
  }
`

const AddRow = styled.div`
  display: grid;
  grid-template-columns: minmax(160px, 220px) minmax(200px, 1fr) auto;
  gap: 8px 12px;
  align-items: end;
`

const Input = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
`

const kindOptions = SCOPE_KINDS.map((kind) => ({ value: kind, label: SCOPE_KIND_LABELS[kind] }))

export function ScopeEditor({
  entries,
  onAdd,
  onRemove,
}: {
  entries: readonly ScopeEntry[]
  onAdd(entry: ScopeEntry): Promise<void>
  onRemove(entry: ScopeEntry): Promise<void>
}) {
  const hydrated = useHydrated()
  const [kind, setKind] = useState<ScopeKind | 'guess'>('guess')
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [removing, setRemoving] = useState<ScopeEntry | null>(null)
  const [removeError, setRemoveError] = useState<string | null>(null)

  // Not a form of its own: the editor also sits inside the create-company form.
  const add = async () => {
    const parsed = v.safeParse(ScopeEntrySchema, { kind: kind === 'guess' ? guessScopeKind(value) : kind, value })
    if (!parsed.success) return setError(parsed.issues[0].message)
    if (entries.some((entry) => scopeEntryKey(entry) === scopeEntryKey(parsed.output)))
      return setError('This entry is in the scope already.')
    setBusy(true)
    setError(null)
    try {
      await onAdd(parsed.output)
      setValue('')
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The entry was not added: try again.')
    } finally {
      setBusy(false)
    }
  }

  const remove = async () => {
    if (!removing) return
    setBusy(true)
    setRemoveError(null)
    try {
      await onRemove(removing)
      setRemoving(null)
    } catch (failure) {
      setRemoveError(failure instanceof Error ? failure.message : 'The entry was not removed: try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      {entries.length === 0 ? (
        <Muted>No entries yet: nothing may be scanned for this company.</Muted>
      ) : (
        <List aria-label="Scan scope">
          {entries.map((entry) => (
            <li key={scopeEntryKey(entry)}>
              <span>
                <code>{entry.value}</code> <Muted>{SCOPE_KIND_LABELS[entry.kind]}</Muted>
              </span>
              <Button
                type="button"
                $variant="secondary"
                aria-label={`Remove ${entry.value}`}
                disabled={!hydrated || busy}
                onClick={() => setRemoving(entry)}
              >
                <IconTrash size={16} aria-hidden="true" />
              </Button>
            </li>
          ))}
        </List>
      )}
      <AddRow role="group" aria-label="Add a scope entry">
        <Field>
          <Label htmlFor="scope-kind">Kind</Label>
          <Select id="scope-kind" value={kind} disabled={!hydrated} onChange={(e) => setKind(e.target.value as ScopeKind | 'guess')}>
            <option value="guess">Recognise it</option>
            <SelectOptions options={kindOptions} />
          </Select>
        </Field>
        <Field>
          <Label htmlFor="scope-value">Entry</Label>
          <Input
            id="scope-value"
            value={value}
            disabled={!hydrated}
            placeholder="acme.example, *.acme.example, 192.0.2.0/24, https://app.acme.example/"
            aria-invalid={error !== null || undefined}
            aria-describedby={error ? 'scope-error' : undefined}
            onChange={(e) => {
              setValue(e.target.value)
              setError(null)
            }}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return
              e.preventDefault()
              void add()
            }}
          />
        </Field>
        <Button type="button" $variant="secondary" disabled={!hydrated || busy || value.trim() === ''} onClick={() => void add()}>
          Add
        </Button>
      </AddRow>
      {error && (
        <FormMessage id="scope-error" $tone="error">
          {error}
        </FormMessage>
      )}
      <Dialog
        open={removing !== null}
        onOpenChange={(open) => !open && !busy && setRemoving(null)}
        title="Remove from the scan scope?"
        description={`${removing?.value ?? ''} will no longer be scanned, and DAST keys may no longer name it.`}
      >
        {removeError && <FormMessage $tone="error">{removeError}</FormMessage>}
        <DialogActions>
          <Button type="button" $variant="secondary" onClick={() => setRemoving(null)} disabled={busy}>
            Cancel
          </Button>
          <Button type="button" onClick={() => void remove()} disabled={busy}>
            Remove
          </Button>
        </DialogActions>
      </Dialog>
    </>
  )
}
