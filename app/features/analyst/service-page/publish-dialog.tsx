// The publish dialog (decision 0045): before the click it says, as the server counted it, how many
// open findings become "not detected", which published scan of the same scope the draft compares
// with, and whether it goes out as a side scan. Publish waits for that answer; a large scan is then
// written over several calls, each answering how far it got.
import { useEffect, useId, useState } from 'react'
import styled from 'styled-components'
import { formatNumber } from '#domain/numbers.ts'
import type { PublicationPreview } from '#domain/scan-import-calls.ts'
import { scopeTargets, type Scan } from '#domain/scans.ts'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { LocalTime } from '~/ui/local-time'
import { callAnalyst, failureMessage } from './analyst-calls'
import { ErrorText, Muted } from './parts'

const Outcome = styled.div`
  display: grid;
  gap: 8px;
  margin-bottom: 18px;

  p {
    margin: 0;
  }
  strong {
    font-variant-numeric: tabular-nums;
  }
`

type Preview = { state: 'loading' } | { state: 'ready'; preview: PublicationPreview } | { state: 'failed'; message: string }

const findingsWord = (n: number) => (n === 1 ? 'open finding' : 'open findings')

/** What publishing will do, in words: the comparison, the side scan, the findings that become not detected. */
export function PreviewText({ preview }: { preview: PublicationPreview }) {
  const targets = scopeTargets(preview.scopeKey)
  const { previous, notDetected, held } = preview
  return (
    <Outcome aria-label="What publishing does" role="group">
      {previous ? (
        <p>
          Compared with <strong>{previous.title}</strong> (<LocalTime at={previous.publishedAt ?? previous.startedAt} format="date" />
          ), the latest published scan of the same scope.
        </p>
      ) : preview.side ? (
        <p>No published scan has this scope: it compares with nothing.</p>
      ) : (
        <p>The service&rsquo;s first scan: there is nothing to compare with.</p>
      )}
      {preview.side && (
        <p>A side scan of {targets}: it closes no finding outside this scope and does not become the service&rsquo;s latest scan.</p>
      )}
      <p>
        {notDetected === 0 ? (
          <strong>No open finding becomes not detected.</strong>
        ) : (
          <strong>
            {formatNumber(notDetected)} {findingsWord(notDetected)} of this scope that it does not list{' '}
            {notDetected === 1 ? 'becomes' : 'become'} not detected.
          </strong>
        )}
      </p>
      {held > 0 && (
        <p>{formatNumber(held)} more it does not list keep their status: a retest, dispute or risk acceptance waits on a person.</p>
      )}
    </Outcome>
  )
}

export function PublishDialog({
  company,
  scan,
  open,
  onClose,
  onPublished,
}: {
  company: string
  scan: Scan
  open: boolean
  onClose(): void
  /** The publication's outcome, in words. */
  onPublished(outcome: string): void
}) {
  const progressId = useId()
  const [preview, setPreview] = useState<Preview>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null)

  // Counted afresh each time the dialog opens: findings move between two looks.
  useEffect(() => {
    if (!open) return
    let live = true
    setPreview({ state: 'loading' })
    setError(null)
    callAnalyst('previewPublication', { company, scanId: scan.id }).then(
      (answer) => live && setPreview({ state: 'ready', preview: answer }),
      async (failure: unknown) => {
        const message = await failureMessage(failure)
        if (live) setPreview({ state: 'failed', message })
      },
    )
    return () => {
      live = false
    }
  }, [open, company, scan.id, attempt])

  async function publish() {
    setBusy(true)
    setError(null)
    try {
      for (;;) {
        const { counts, progress: step } = await callAnalyst('publishScan', { company, scanId: scan.id })
        setProgress(step)
        if (step) continue
        const side = preview.state === 'ready' && preview.preview.side ? ' as a side scan' : ''
        onPublished(
          `Published${side}: ${counts.new} new, ${counts.persisting} persisting, ${counts.notDetected} not detected, ${counts.reopened} reopened.`,
        )
        onClose()
        break
      }
    } catch (failure) {
      setError(await failureMessage(failure))
    } finally {
      setProgress(null)
      setBusy(false)
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !busy && onClose()}
      title="Publish this scan?"
      description="The client sees its findings at once and is told."
    >
      {preview.state === 'loading' && <Muted role="status">Counting the open findings it would mark not detected…</Muted>}
      {preview.state === 'failed' && (
        <ErrorText role="alert">
          The findings it would mark not detected could not be counted: {preview.message} Publishing waits for that count.
        </ErrorText>
      )}
      {preview.state === 'ready' && <PreviewText preview={preview.preview} />}
      {error && <ErrorText role="alert">{error}</ErrorText>}
      {progress && (
        <p role="status">
          <label htmlFor={progressId}>
            Publishing: {progress.done.toLocaleString('en')} of {progress.total.toLocaleString('en')} findings gone through
          </label>{' '}
          <progress id={progressId} value={progress.done} max={Math.max(progress.total, 1)} />
        </p>
      )}
      <DialogActions>
        <Button type="button" $variant="secondary" disabled={busy} onClick={onClose}>
          Cancel
        </Button>
        {preview.state === 'failed' ? (
          <Button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Count again
          </Button>
        ) : (
          <Button type="button" disabled={busy || preview.state !== 'ready'} onClick={() => void publish()}>
            {busy ? 'Working…' : 'Publish'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  )
}
