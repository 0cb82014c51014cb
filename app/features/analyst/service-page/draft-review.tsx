// Review of a draft before the client sees it: the import report, then each finding matched by
// fingerprint with its template (a rule mapping's, the analyst's, or flagged as unmapped),
// severity and CVSS, false positives, merges and splits, changed a selection at a time; then
// publish or discard. The findings come a page at a time, narrowed on the server; the totals are
// counted there, so a draft of 100,000 findings says 100,000.
import { useId, useMemo, useRef, useState } from 'react'
import { formatNumber } from '#domain/numbers.ts'
import { DRAFT_REVIEW_MAX_FINDINGS, type DraftReview } from '#domain/scan-import-calls.ts'
import type { DraftFinding } from '#domain/scan-drafts.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { SEVERITIES, severityLabels, type Severity } from '#domain/template-vocabulary.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { callAnalyst, failureMessage } from './analyst-calls'
import { ALL_DRAFT_FINDINGS, DRAFT_SHOWS, draftShowLabels, narrows, type DraftFilter, type DraftShow } from './draft-filter'
import { DraftCvss } from './draft-cvss'
import { DraftFindingDetail } from './draft-finding-detail'
import { DraftFindingsTable } from './draft-findings-table'
import { PublishDialog } from './publish-dialog'
import { ErrorText, FilterInput, Muted, Panel, Tag, Toolbar } from './parts'
import { RawFiles } from './raw-files'
import { TemplatePicker } from './template-picker'

/** The severity select's choice that hands the severity back to the CVSS score. */
const FOLLOW_SCORE = 'follow'

const matchLine = (n: number) => `${formatNumber(n)} ${n === 1 ? 'matches' : 'match'} the filter`

export function DraftReviewPanel({ company, service, scan }: { company: string; service: ServiceId; scan: Scan }) {
  const ids = {
    show: useId(),
    level: useId(),
    rule: useId(),
    severity: useId(),
    heading: useId(),
  }
  const [filter, setFilter] = useState<DraftFilter>(ALL_DRAFT_FINDINGS)
  const [rule, setRule] = useState('')
  const findings = useLiveData(
    async () => (await import('./analyst-live')).watchDraftFindings(company, scan.id, filter),
    [company, scan.id, filter],
  )
  const templates = useLiveData(async () => (await import('./analyst-live')).watchTemplateChoices(), [])
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [confirm, setConfirm] = useState<'publish' | 'discard' | null>(null)
  const [outcome, setOutcome] = useState<string | null>(null)
  // The finding whose detail is open, kept as last shown so a change of page does not close it.
  const [opened, setOpened] = useState<DraftFinding | null>(null)
  const opener = useRef<HTMLElement | null>(null)

  const view = findings.data
  const shown = useMemo(() => view?.items ?? [], [view])
  const byId = useMemo(() => new Map(shown.map((f) => [f.id, f])), [shown])
  const detail = opened ? (byId.get(opened.id) ?? opened) : null
  // Changes act on the selected findings that are shown (a filter changed clears the selection).
  const chosen = shown.filter((f) => selected.has(f.id))
  const narrowed = narrows(filter)
  const choices = templates.data ?? []

  const narrow = (change: Partial<DraftFilter>) => {
    const next = { ...filter, ...change }
    if (next.show === filter.show && next.severity === filter.severity && next.ruleId === filter.ruleId) return
    setFilter(next)
    setSelected(new Set())
  }

  /** Changes the findings named (the selected ones by default), as many at a time as a call takes. */
  async function review(change: DraftReview, findingIds = chosen.map((f) => f.id)) {
    setBusy(true)
    setError(null)
    try {
      for (let start = 0; start < findingIds.length; start += DRAFT_REVIEW_MAX_FINDINGS)
        await callAnalyst('reviewDraftFindings', {
          company,
          scanId: scan.id,
          findingIds: findingIds.slice(start, start + DRAFT_REVIEW_MAX_FINDINGS),
          review: change,
        })
    } catch (failure) {
      setError(await failureMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  async function discard() {
    setBusy(true)
    setError(null)
    try {
      await callAnalyst('discardDraftScan', { company, scanId: scan.id })
      setConfirm(null)
    } catch (failure) {
      setError(await failureMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const report = scan.importReport

  return (
    <Panel aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>Review: {scan.title}</h2>
      {report && (
        <Muted>
          Import report: {report.findings} findings and {report.assets} assets read from {scan.files.map((f) => f.name).join(', ')};{' '}
          {report.skipped} skipped, {report.warnings} warnings.
        </Muted>
      )}
      <RawFiles company={company} scan={scan} />
      {report && report.notes.length > 0 && (
        <details>
          <summary>What was skipped or warned about ({report.notes.length})</summary>
          <ul>
            {report.notes.map((note, i) => (
              <li key={i}>
                <Tag $tone={note.level === 'warning' ? 'warning' : 'muted'}>{note.level}</Tag> {note.where}: {note.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      {outcome && <p role="status">{outcome}</p>}
      <Toolbar>
        {view && (
          <span>
            {`${formatNumber(view.totals.all)} ${view.totals.all === 1 ? 'finding' : 'findings'}, ` +
              `${formatNumber(view.totals.unmapped)} without a template${narrowed ? `; ${matchLine(view.totals.matching)}` : ''}`}
          </span>
        )}
        <Button type="button" disabled={busy} onClick={() => setConfirm('publish')}>
          Publish to the client
        </Button>
        <Button type="button" $variant="secondary" disabled={busy} onClick={() => setConfirm('discard')}>
          Discard draft
        </Button>
      </Toolbar>
      <Toolbar role="group" aria-label="Narrow the findings">
        <label htmlFor={ids.show}>Show</label>
        <select id={ids.show} value={filter.show} onChange={(event) => narrow({ show: event.target.value as DraftShow })}>
          {DRAFT_SHOWS.map((show) => (
            <option key={show} value={show}>
              {draftShowLabels[show]}
            </option>
          ))}
        </select>
        <label htmlFor={ids.level}>Level</label>
        <select
          id={ids.level}
          value={filter.severity ?? ''}
          onChange={(event) => narrow({ severity: (event.target.value || null) as Severity | null })}
        >
          <option value="">Every severity</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {severityLabels[s]}
            </option>
          ))}
        </select>
        <form
          onSubmit={(event) => {
            event.preventDefault()
            narrow({ ruleId: rule.trim() })
          }}
        >
          <label htmlFor={ids.rule}>Rule</label>{' '}
          <FilterInput
            id={ids.rule}
            type="search"
            value={rule}
            onChange={(event) => {
              setRule(event.target.value)
              if (event.target.value === '') narrow({ ruleId: '' })
            }}
            placeholder="Exact rule id, then Enter"
            spellCheck={false}
          />
        </form>
      </Toolbar>
      <Toolbar role="group" aria-label="Change the selected findings">
        <span>
          {formatNumber(chosen.length)} selected of the {formatNumber(shown.length)} shown
        </span>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy || chosen.length === 0}
          onClick={() => void review({ kind: 'false_positive', value: true })}
        >
          False positive
        </Button>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy || chosen.length === 0}
          onClick={() => void review({ kind: 'false_positive', value: false })}
        >
          Not a false positive
        </Button>
        <label htmlFor={ids.severity}>Severity</label>
        <select
          id={ids.severity}
          disabled={busy || chosen.length === 0}
          value=""
          onChange={(event) => {
            const value = event.target.value
            if (value) void review({ kind: 'severity', severity: value === FOLLOW_SCORE ? null : (value as Severity) })
          }}
        >
          <option value="">Set…</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {severityLabels[s]}
            </option>
          ))}
          <option value={FOLLOW_SCORE}>Follow the CVSS score</option>
        </select>
        <TemplatePicker
          service={service}
          templates={choices}
          finding={chosen[0] ?? null}
          disabled={busy || chosen.length === 0 || templates.status !== 'ready'}
          onPick={(slug) => void review({ kind: 'template', templateSlug: slug, remember: slug !== null })}
        />
        <Button
          type="button"
          $variant="secondary"
          disabled={busy || chosen.length < 2}
          title="The other selected findings are published as the first one"
          onClick={() => {
            const [into, ...rest] = chosen
            if (into)
              void review(
                { kind: 'merge', into: into.id },
                rest.map((f) => f.id),
              )
          }}
        >
          Merge
        </Button>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy || !chosen.some((f) => f.mergedInto || shown.some((other) => other.mergedInto === f.id))}
          title="The selected findings, and those merged into them, are published on their own again"
          onClick={() => void review({ kind: 'split' })}
        >
          Split
        </Button>
      </Toolbar>
      <DraftCvss chosen={chosen} busy={busy} onSet={(vector) => review({ kind: 'cvss', vector })} />
      {templates.status === 'failed' && (
        <Muted>The template library cannot be read with your access: findings keep the scanner's text.</Muted>
      )}
      {error && <ErrorText role="alert">{error}</ErrorText>}
      <LiveStatus live={findings} what="the draft's findings" />
      {findings.status === 'ready' &&
        (view!.totals.all === 0 ? (
          <Muted>This draft has no findings: publishing it marks the open findings it does not list as not detected.</Muted>
        ) : shown.length === 0 ? (
          <Muted>No finding of this draft matches: choose all findings, every severity or no rule to see more.</Muted>
        ) : (
          <>
            <DraftFindingsTable
              findings={shown}
              selected={selected}
              onToggle={toggle}
              onSelectAll={(ids) => setSelected(new Set(ids ?? []))}
              onOpen={(id) => {
                opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
                setOpened(byId.get(id) ?? null)
              }}
              titleOf={(id) => byId.get(id)?.title}
            />
            <ListCap shown={shown.length} what="findings" order="most severe" onMore={view!.more} loading={view!.loading}>
              {narrowed
                ? `${matchLine(view!.totals.matching)}.`
                : `${formatNumber(view!.totals.all)} in all; narrow them by template, severity or rule above.`}
            </ListCap>
          </>
        ))}
      <DraftFindingDetail
        company={company}
        scanId={scan.id}
        service={service}
        finding={detail}
        onClose={() => setOpened(null)}
        returnFocus={() => opener.current}
        templates={templates.status === 'ready' ? choices : null}
      />
      <PublishDialog company={company} scan={scan} open={confirm === 'publish'} onClose={() => setConfirm(null)} onPublished={setOutcome} />
      <Dialog
        open={confirm === 'discard'}
        onOpenChange={(open) => !open && setConfirm(null)}
        title="Discard this draft?"
        description="Its draft findings go. The same files can be imported again."
      >
        {error && <ErrorText role="alert">{error}</ErrorText>}
        <DialogActions>
          <Button type="button" $variant="secondary" disabled={busy} onClick={() => setConfirm(null)}>
            Cancel
          </Button>
          <Button type="button" disabled={busy} onClick={() => void discard()}>
            {busy ? 'Working…' : 'Discard'}
          </Button>
        </DialogActions>
      </Dialog>
    </Panel>
  )
}
