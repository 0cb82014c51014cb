// Asks before a destructive action: says what will happen, runs it while the buttons wait, and
// stays open with the reason when it fails.
import { useState } from 'react'
import { Button } from './button'
import { Dialog, DialogActions } from './dialog'
import { FormMessage } from './text-field'

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: string
  confirmLabel: string
  /** Throws an Error whose message is fit to show. */
  onConfirm: () => Promise<void>
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  async function confirm() {
    setBusy(true)
    setError(null)
    try {
      await onConfirm()
      onOpenChange(false)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'That did not work: try again.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) {
          setError(null)
          onOpenChange(next)
        }
      }}
      title={title}
      description={description}
      dismissible={!busy}
    >
      {error && <FormMessage $tone="error">{error}</FormMessage>}
      <DialogActions>
        <Button type="button" $variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="button" disabled={busy} onClick={() => void confirm()}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  )
}
