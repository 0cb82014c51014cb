// Review of a draft before the client sees it: the import report, then each finding matched by
// fingerprint with its template (a rule mapping's, the analyst's, or flagged as unmapped),
// severity and CVSS, false positives, merges and splits, changed a selection at a time; then
// publish or discard.
import { useId, useMemo, useState } from 'react'
import { parseCvssVector } from '#domain/cvss.ts'
import type { DraftReview } from '#domain/scan-import-calls.ts'
import type { DraftFinding } from '#domain/scan-drafts.ts'
import type { Scan } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { suggestTemplates, type TemplateChoice } from '#domain/template-mappings.ts'
import { SEVERITIES, severityLabels, type Severity } from '#domain/template-vocabulary.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { LiveStatus } from '~/ui/live-status'
import { callAnalyst, failureMessage } from './analyst-calls'
import { DraftFindingsTable } from './draft-findings-table'
import { ErrorText, FilterInput, Muted, Panel, Tag, Toolbar } from './parts'
import { RawFiles } from './raw-files'

const matches = (finding: DraftFinding, text: string) =>
  text === '' ||
  [finding.title, finding.asset, finding.ruleId, finding.templateSlug ?? ''].some((field) => field.toLowerCase().includes(text))

export function DraftReviewPanel({ company, service, scan }: { company: string; service: ServiceId; scan: Scan }) {
  const ids = { filter: useId(), severity: useId(), template: useId(), heading: useId(), cvss: useId(), publishing: useId() }
  const [vector, setVector] = useState('')
  const findings = useLiveData(async () => (await import('./analyst-live')).watchDraftFindings(company, scan.id), [company, scan.id])
  const templates = useLiveData(async () => (await import('./analyst-live')).watchTemplateChoices(), [])
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [filter, setFilter] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [confirm, setConfirm] = useState<'publish' | 'discard' | null>(null)
  const [outcome, setOutcome] = useState<string | null>(null)
  const [publishing, setPublishing] = useState<{ done: number; total: number } | null>(null)

  const all = useMemo(
    () =>
      [...(findings.data ?? [])].sort(
        (a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || a.title.localeCompare(b.title),
      ),
    [findings.data],
  )
  const byId = useMemo(() => new Map(all.map((f) => [f.id, f])), [all])
  const shown = all.filter((f) => matches(f, filter.trim().toLowerCase()))
  const chosen = all.filter((f) => selected.has(f.id))
  const unmapped = all.filter((f) => !f.templateSlug && !f.falsePositive && !f.mergedInto).length
  const choices = templates.data ?? []
  const suggestions: TemplateChoice[] = chosen[0] ? suggestTemplates(chosen[0], choices) : []

  const parsedVector = vector.trim() ? parseCvssVector(vector) : null
  const cvssPreview = parsedVector
    ? parsedVector.ok
      ? `${parsedVector.score.toFixed(1)} (${parsedVector.severity})`
      : parsedVector.error
    : chosen.length === 1 && chosen[0]!.cvss
      ? `Now ${chosen[0]!.cvss.score.toFixed(1)}`
      : ''

  async function review(change: DraftReview) {
    setBusy(true)
    setError(null)
    try {
      await callAnalyst('reviewDraftFindings', { company, scanId: scan.id, findingIds: [...selected], review: change })
    } catch (failure) {
      setError(await failureMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  async function finish(action: 'publish' | 'discard') {
    setBusy(true)
    setError(null)
    try {
      if (action === 'publish') {
        // A large scan is written over several calls, each answering how far it got.
        for (;;) {
          const { counts, progress } = await callAnalyst('publishScan', { company, scanId: scan.id })
          setPublishing(progress)
          if (progress) continue
          setOutcome(
            `Published: ${counts.new} new, ${counts.persisting} persisting, ${counts.notDetected} not detected, ${counts.reopened} reopened.`,
          )
          break
        }
      } else await callAnalyst('discardDraftScan', { company, scanId: scan.id })
      setConfirm(null)
    } catch (failure) {
      setError(await failureMessage(failure))
    } finally {
      setPublishing(null)
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
      <LiveStatus live={findings} what="the draft's findings" />
      {outcome && <p role="status">{outcome}</p>}
      {findings.status === 'ready' && (
        <>
          <Toolbar>
            <span>
              {all.length} findings, {unmapped} without a template
            </span>
            <Button type="button" disabled={busy} onClick={() => setConfirm('publish')}>
              Publish to the client
            </Button>
            <Button type="button" $variant="secondary" disabled={busy} onClick={() => setConfirm('discard')}>
              Discard draft
            </Button>
          </Toolbar>
          <Toolbar role="group" aria-label="Change the selected findings">
            <label htmlFor={ids.filter}>Filter</label>
            <FilterInput
              id={ids.filter}
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              placeholder="Title, asset, rule or template"
            />
            <span>{selected.size} selected</span>
            <Button
              type="button"
              $variant="secondary"
              disabled={busy || selected.size === 0}
              onClick={() => void review({ kind: 'false_positive', value: true })}
            >
              False positive
            </Button>
            <Button
              type="button"
              $variant="secondary"
              disabled={busy || selected.size === 0}
              onClick={() => void review({ kind: 'false_positive', value: false })}
            >
              Not a false positive
            </Button>
            <label htmlFor={ids.severity}>Severity</label>
            <select
              id={ids.severity}
              disabled={busy || selected.size === 0}
              value=""
              onChange={(event) => void review({ kind: 'severity', severity: event.target.value as Severity })}
            >
              <option value="">Set…</option>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {severityLabels[s]}
                </option>
              ))}
            </select>
            <label htmlFor={ids.template}>Template</label>
            <select
              id={ids.template}
              disabled={busy || selected.size === 0 || templates.status !== 'ready'}
              value=""
              onChange={(event) => {
                const value = event.target.value
                if (value) void review({ kind: 'template', templateSlug: value === '-' ? null : value, remember: value !== '-' })
              }}
            >
              <option value="">Map to…</option>
              {suggestions.length > 0 && (
                <optgroup label="Suggested">
                  {suggestions.map((t) => (
                    <option key={`s-${t.slug}`} value={t.slug}>
                      {t.title}
                    </option>
                  ))}
                </optgroup>
              )}
              <optgroup label="All templates">
                {choices.map((t) => (
                  <option key={t.slug} value={t.slug}>
                    {t.title}
                  </option>
                ))}
              </optgroup>
              <option value="-">No template</option>
            </select>
            <Button
              type="button"
              $variant="secondary"
              disabled={busy || selected.size < 2}
              title="The other selected findings are published as the first one"
              onClick={() => {
                const [into, ...rest] = chosen
                if (into)
                  void callAnalyst('reviewDraftFindings', {
                    company,
                    scanId: scan.id,
                    findingIds: rest.map((f) => f.id),
                    review: { kind: 'merge', into: into.id },
                  }).catch(async (failure) => setError(await failureMessage(failure)))
              }}
            >
              Merge
            </Button>
            <Button
              type="button"
              $variant="secondary"
              disabled={busy || !chosen.some((f) => f.mergedInto || all.some((other) => other.mergedInto === f.id))}
              title="The selected findings, and those merged into them, are published on their own again"
              onClick={() => void review({ kind: 'split' })}
            >
              Split
            </Button>
          </Toolbar>
          <Toolbar role="group" aria-label="CVSS of the selected findings">
            <label htmlFor={ids.cvss}>CVSS vector</label>
            <FilterInput
              id={ids.cvss}
              value={vector}
              onChange={(event) => setVector(event.target.value)}
              placeholder={chosen[0]?.cvss?.vector ?? 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'}
              spellCheck={false}
              aria-describedby={`${ids.cvss}-score`}
            />
            <span id={`${ids.cvss}-score`}>{cvssPreview}</span>
            <Button
              type="button"
              $variant="secondary"
              disabled={busy || selected.size === 0 || !parsedVector?.ok}
              onClick={() => void review({ kind: 'cvss', vector: vector.trim() }).then(() => setVector(''))}
            >
              Set CVSS
            </Button>
            <Button
              type="button"
              $variant="secondary"
              disabled={busy || !chosen.some((f) => f.cvss)}
              onClick={() => void review({ kind: 'cvss', vector: null })}
            >
              Remove CVSS
            </Button>
          </Toolbar>
          {templates.status === 'failed' && (
            <Muted>The template library cannot be read with your access: findings keep the scanner's text.</Muted>
          )}
          {error && <ErrorText role="alert">{error}</ErrorText>}
          {all.length === 0 ? (
            <Muted>This draft has no findings: publishing it marks the open findings it does not list as not detected.</Muted>
          ) : (
            <DraftFindingsTable
              findings={shown}
              selected={selected}
              onToggle={toggle}
              onSelectAll={(ids) => setSelected(new Set(ids ?? []))}
              titleOf={(id) => byId.get(id)?.title}
            />
          )}
        </>
      )}
      <Dialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === 'publish' ? 'Publish this scan?' : 'Discard this draft?'}
        description={
          confirm === 'publish'
            ? `The client sees its findings at once and is told. Open findings of ${service} this scan does not list become not detected.`
            : 'Its draft findings go. The same files can be imported again.'
        }
      >
        {error && <ErrorText role="alert">{error}</ErrorText>}
        {publishing && (
          <p role="status">
            <label htmlFor={ids.publishing}>
              Publishing: {publishing.done.toLocaleString('en')} of {publishing.total.toLocaleString('en')} findings gone through
            </label>{' '}
            <progress id={ids.publishing} value={publishing.done} max={Math.max(publishing.total, 1)} />
          </p>
        )}
        <DialogActions>
          <Button type="button" $variant="secondary" disabled={busy} onClick={() => setConfirm(null)}>
            Cancel
          </Button>
          <Button type="button" disabled={busy} onClick={() => void finish(confirm ?? 'publish')}>
            {busy ? 'Working…' : confirm === 'publish' ? 'Publish' : 'Discard'}
          </Button>
        </DialogActions>
      </Dialog>
    </Panel>
  )
}
