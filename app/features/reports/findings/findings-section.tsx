// A service's findings in the report page: filters, search and grouping over the live table, and
// the bulk moves a client manager makes on a selection (request a retest for several at once).
// Shown only to people who see the service's results (canViewResults).
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import styled from 'styled-components'
import { canViewResults, findingRole, type FindingRole } from '#domain/access.ts'
import { FINDING_STATUSES, findingStatusLabels, type Finding } from '#domain/findings.ts'
import type { FindingRowHit, FindingsQuery } from '#domain/findings-search.ts'
import { FINDING_ACTIONS, findingActionLabels, mayMakeMove, type FindingAction } from '#domain/finding-workflow.ts'
import { RETEST_MAX_FINDINGS } from '#domain/retests.ts'
import type { ServiceId } from '#domain/services.ts'
import { SEVERITIES, severityLabels } from '#domain/template-vocabulary.ts'
import { useFindingsSearchAhead } from '~/core/findings-search-ahead'
import { useLiveData, type Watch } from '~/core/live-data'
import type { Workspace } from '~/core/workspace'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { useNearScreen } from '~/ui/near-screen'
import { SegmentedControl } from '~/ui/segmented-control'
import { fieldControl } from '~/ui/text-field'
import { colors } from '~/ui/theme'
import { FindingsTable } from './findings-table'
import { toggleFacet, type FindingRow } from './findings-query'
import { searcherFor, useFindingsResults, type FindingsSearcher } from './findings-results'
import { hasFindingFilters, type FindingsFacet, type FindingsSearch } from './findings-search-params'
import { MoveDialog, type MoveProgress, type MoveRequest } from './move-dialog'
import { makeMove } from './moves'
import { formatNumber } from '#domain/numbers.ts'

const Section = styled.section`
  margin-top: 32px;

  h2 {
    font-size: 20px;
    margin: 0 0 12px;
  }
`

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 12px 20px;
  margin-bottom: 12px;
`

const Scope = styled.p`
  margin: 0 0 0.5rem;
  color: ${colors.textMuted};
`

const Facet = styled.fieldset`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
  margin: 0;
  padding: 0;
  border: none;

  legend {
    float: left;
    margin-right: 6px;
    font-size: 13px;
    font-weight: 650;
    color: ${colors.textMuted};
  }
`

const Chip = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 30px;
  padding: 0 10px;
  border: 1px solid ${colors.border};
  border-radius: 999px;
  background: ${colors.surface};
  color: ${colors.text};
  font: inherit;
  font-size: 13px;
  cursor: pointer;

  &[aria-pressed='true'] {
    border-color: ${colors.primary};
    background: ${colors.primarySoft};
    font-weight: 650;
  }
  &:focus-visible {
    outline: 2px solid ${colors.focus};
    outline-offset: 1px;
  }
  small {
    color: ${colors.textMuted};
    font-size: 12px;
  }
`

const Input = styled.input`
  ${fieldControl}
  min-height: 36px;
  padding: 0 10px;
  width: 220px;
`

const SearchLabel = styled.label`
  display: flex;
  flex-direction: column;
  gap: 4px;
  font-size: 13px;
  font-weight: 650;
  color: ${colors.textMuted};
`

const Bulk = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  min-height: 48px;
  margin-bottom: 8px;
  padding: 6px 12px;
  border: 1px solid ${colors.border};
  border-radius: 10px;
  background: ${colors.bg};
`

const Message = styled.p<{ $tone: 'error' | 'success' }>`
  margin: 0;
  color: ${({ $tone }) => ($tone === 'error' ? colors.danger : colors.success)};
`

const BULK_MOVES: FindingAction[] = ['request_retest', 'start_remediation']

/** A free-text facet (asset, tag): type or pick a value and press Enter; chosen values are chips. */
function TextFacet({
  label,
  facet,
  options,
  search,
  onSearchChange,
}: {
  label: string
  facet: 'asset' | 'tag'
  options: string[]
  search: FindingsSearch
  onSearchChange(next: FindingsSearch): void
}) {
  const listId = useId()
  const [draft, setDraft] = useState('')
  const chosen = search[facet] ?? []
  const add = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    const value = draft.trim()
    if (value && !chosen.includes(value)) onSearchChange(toggleFacet(search, facet, value))
    setDraft('')
  }
  return (
    <Facet>
      <legend>{label}</legend>
      <Input
        aria-label={`Filter by ${label.toLowerCase()}`}
        placeholder={`Add ${label.toLowerCase()}…`}
        list={listId}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={add}
      />
      <datalist id={listId}>
        {options.slice(0, 200).map((option) => (
          <option key={option} value={option} />
        ))}
      </datalist>
      {chosen.map((value) => (
        <Chip
          key={value}
          type="button"
          aria-pressed="true"
          aria-label={`Remove ${label.toLowerCase()} filter ${value}`}
          onClick={() => onSearchChange(toggleFacet(search, facet, value))}
        >
          {value} <span aria-hidden="true">×</span>
        </Chip>
      ))}
    </Facet>
  )
}

export interface FindingsSectionProps {
  workspace: Workspace
  service: ServiceId
  search: FindingsSearch
  onSearchChange(next: FindingsSearch): void
  /** The address of a finding's page. */
  findingHref(id: string): string
}

/** The findings of the service for the selected company, or nothing for those who see only its stats. */
export function FindingsSection(props: FindingsSectionProps) {
  const { workspace, service } = props
  const company = workspace.company
  if (!company || !canViewResults(workspace.access, company, service)) return null
  return <FindingsForCompany key={`${company.slug}/${service}`} {...props} company={company.slug} />
}

/**
 * How far below the screen the findings start loading. A service's open findings run to thousands,
 * and taking in their first snapshot is the page's heaviest work: readers who stay with the
 * figures at the top never pay for it.
 */
const FINDINGS_AHEAD = '100%'

/** What the section says until the findings start loading (they do as it comes near). */
const NOT_YET_LOADED = { status: 'loading', retry: () => {} } as const

function FindingsForCompany(props: FindingsSectionProps & { company: string }) {
  const headingId = useId()
  // The search key is asked for once the page is idle, not when the reader reaches the table.
  useFindingsSearchAhead(props.company)
  const [section, near] = useNearScreen<HTMLElement>(FINDINGS_AHEAD)
  // An address that names filters (a shared link, say) was opened for the findings.
  const wanted = near || hasFindingFilters(props.search)
  return (
    <Section ref={section} aria-labelledby={headingId}>
      <h2 id={headingId}>Findings</h2>
      {wanted ? <LiveFindings {...props} /> : <LiveStatus live={NOT_YET_LOADED} what="findings" />}
    </Section>
  )
}

/** Where the view's live parts come from: the service's figures (a change asks the index again) and the findings on screen. */
export interface FindingsLiveSources {
  figures(company: string, service: ServiceId): Promise<Watch<unknown>>
  findings(company: string, service: ServiceId, ids: readonly string[]): Promise<Watch<Finding[]>>
}

const firestoreSources: FindingsLiveSources = {
  figures: (company, service) => import('../data/reports-live').then((m) => m.watchServiceStats(company, service)),
  findings: (company, service, ids) => import('./findings-live').then((m) => m.watchFindingsByIds(company, service, ids)),
}

function LiveFindings(props: FindingsSectionProps & { company: string }) {
  const searcher = useMemo(() => searcherFor(props.company), [props.company])
  return <FindingsView {...props} searcher={searcher} sources={firestoreSources} />
}

/**
 * After a change the search index takes a while to have it (its trigger runs after the write; a
 * large publication's findings arrive over minutes): the table asks again at once, then after
 * growing pauses, until the answer has changed and then held, or the pauses run out.
 */
const CATCH_UP_PAUSES_MS = [3000, 6000, 12_000, 24_000, 48_000]

/** The table over what the search index finds (the DOM tests give it their own searcher). */
export function FindingsView({
  searcher,
  sources,
  workspace,
  company,
  service,
  search,
  onSearchChange,
  findingHref,
  now: nowProp,
}: {
  searcher: FindingsSearcher
  sources: FindingsLiveSources
  workspace: Pick<Workspace, 'access'>
  company: string
  service: ServiceId
  search: FindingsSearch
  onSearchChange(next: FindingsSearch): void
  findingHref(id: string): string
  now?: number
}) {
  const [mountedAt] = useState(() => Date.now())
  const now = nowProp ?? mountedAt
  const { severity, status, asset, tag, kev, q, sort, group } = search
  const query = useMemo<FindingsQuery>(
    () => ({ service, severity, status, asset, tag, kev, q: q?.trim() || undefined, sort }),
    [service, severity, status, asset, tag, kev, q, sort],
  )
  const results = useFindingsResults(searcher, query, group)
  const { refresh } = results

  // The figures of the service change with every finding that changes: the list is asked again.
  const stats = useLiveData(() => sources.figures(company, service), [sources, company, service])
  const statsSeen = useRef<unknown>(undefined)
  // `before`: the answer when the figures changed; the catch-up ends once a later answer differs
  // from it and the next agrees (the index has the change), or when the pauses run out.
  const [catchUp, setCatchUp] = useState<{ round: number; before: string | null; last: string | null } | null>(null)
  const answer = results.status === 'ready' ? JSON.stringify(results.summary) : null
  const answerNow = useRef(answer)
  answerNow.current = answer
  useEffect(() => {
    if (stats.status !== 'ready') return
    const first = statsSeen.current === undefined
    statsSeen.current = stats.data
    if (first) return
    setCatchUp({ round: 0, before: answerNow.current, last: null })
    refresh()
    // refresh is a new function each render; the figures are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stats.data])
  useEffect(() => {
    if (!catchUp || answer === null) return
    const pause = CATCH_UP_PAUSES_MS[catchUp.round]
    const settled = catchUp.last !== null && catchUp.last !== catchUp.before && answer === catchUp.last
    if (settled || pause === undefined) {
      setCatchUp(null)
      return
    }
    const timer = setTimeout(() => {
      setCatchUp({ ...catchUp, round: catchUp.round + 1, last: answer })
      refresh()
    }, pause)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [catchUp, answer])

  // The findings on screen, live: a move shows before the index has it.
  const [visible, setVisible] = useState<FindingRowHit[]>([])
  const idsKey = visible.map((hit) => hit.findingId).join(',')
  const live = useLiveData(() => sources.findings(company, service, idsKey ? idsKey.split(',') : []), [sources, company, service, idsKey])
  const liveById = useMemo(() => new Map((live.data ?? []).map((finding) => [finding.id, finding])), [live.data])
  const onVisibleRows = useCallback(
    (hits: FindingRowHit[]) => setVisible((last) => (last.length === hits.length && last.every((hit, i) => hit === hits[i]) ? last : hits)),
    [],
  )
  // A finding on screen that the index still has otherwise: asked again, less and less often, until it agrees.
  const stale = visible.some((hit) => {
    const now_ = liveById.get(hit.findingId)
    return now_ !== undefined && (now_.status !== hit.status || now_.severity !== hit.severity)
  })
  const [staleRounds, setStaleRounds] = useState(0)
  useEffect(() => {
    if (!stale) {
      setStaleRounds(0)
      return
    }
    const timer = setTimeout(
      () => {
        setStaleRounds((n) => n + 1)
        refresh()
      },
      Math.min(1000 * 2 ** staleRounds, 8000),
    )
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stale, staleRounds, results.version])

  const [selection, setSelection] = useState<ReadonlyMap<string, FindingRow>>(new Map())
  const [move, setMove] = useState<FindingAction | null>(null)
  const [result, setResult] = useState<{ tone: 'error' | 'success'; text: string } | null>(null)
  const role = findingRole(workspace.access)

  const selected = [...selection.values()]
  const eligible = (action: FindingAction) => selected.filter((row) => mayMakeMove(role, action, row.status)).map((row) => row.id)
  const bulkMoves = BULK_MOVES.filter((action) => role !== null && (FINDING_ACTIONS[action].by as readonly FindingRole[]).includes(role))

  const submit = async (action: FindingAction, request: MoveRequest, progress: MoveProgress) => {
    const ids = eligible(action)
    if (ids.length > RETEST_MAX_FINDINGS) throw new Error(`Choose at most ${RETEST_MAX_FINDINGS} findings at once.`)
    const outcome = await makeMove(company, ids, action, request, progress)
    setSelection(new Map())
    setResult(
      outcome.refused.length === 0
        ? { tone: 'success', text: `${findingActionLabels[action]}: ${ids.length} finding${ids.length === 1 ? '' : 's'} done.` }
        : {
            tone: 'error',
            text: `${ids.length - outcome.refused.length} done; refused: ${outcome.refused.map((r) => r.reason).join(' ')}`,
          },
    )
  }

  const summary = results.summary
  return (
    <>
      <LiveStatus live={results.summary ? { status: 'ready', retry: results.retry } : results} what="findings" />
      {results.status === 'failed' && results.summary && (
        <Message $tone="error" role="alert">
          The findings could not be brought up to date.{' '}
          <Button type="button" $variant="secondary" onClick={results.retry}>
            Try again
          </Button>
        </Message>
      )}
      {summary && (
        <Scope>
          {search.status?.length ? 'Findings in the chosen statuses' : 'Open findings; choose statuses below to see closed ones'}.
        </Scope>
      )}
      <Toolbar>
        <SearchLabel>
          Search
          <Input
            type="search"
            placeholder="Title, asset, tag, CWE…"
            value={search.q ?? ''}
            onChange={(e) => onSearchChange({ ...search, q: e.target.value || undefined })}
          />
        </SearchLabel>
        <SegmentedControl
          label="Group by"
          value={search.group ?? 'none'}
          options={[
            { value: 'none', label: 'No grouping' },
            { value: 'title', label: 'By finding' },
            { value: 'asset', label: 'By asset' },
          ]}
          onChange={(value) => onSearchChange({ ...search, group: value === 'none' ? undefined : value })}
        />
      </Toolbar>
      <Toolbar>
        <FacetButtons
          label="Severity"
          facet="severity"
          values={SEVERITIES}
          labels={severityLabels}
          counts={summary?.severity}
          search={search}
          onSearchChange={onSearchChange}
        />
        <FacetButtons
          label="Status"
          facet="status"
          values={FINDING_STATUSES}
          labels={findingStatusLabels}
          counts={summary?.status}
          search={search}
          onSearchChange={onSearchChange}
        />
      </Toolbar>
      <Toolbar>
        <TextFacet label="Asset" facet="asset" options={summary?.assets ?? []} search={search} onSearchChange={onSearchChange} />
        <TextFacet label="Tag" facet="tag" options={summary?.tags ?? []} search={search} onSearchChange={onSearchChange} />
        <Facet>
          <legend>Exploitation</legend>
          <Chip
            type="button"
            aria-pressed={Boolean(search.kev)}
            onClick={() => onSearchChange({ ...search, kev: search.kev ? undefined : true })}
          >
            Known exploited (KEV)
          </Chip>
        </Facet>
      </Toolbar>
      {bulkMoves.length > 0 && (
        <Bulk role="group" aria-label="Selected findings">
          {selected.length === 0 ? (
            <span>Select findings to act on several at once.</span>
          ) : (
            <>
              {bulkMoves.map((action) => (
                <Button
                  key={action}
                  type="button"
                  $variant="secondary"
                  disabled={eligible(action).length === 0}
                  onClick={() => setMove(action)}
                >
                  {findingActionLabels[action]} ({eligible(action).length})
                </Button>
              ))}
              <Button type="button" $variant="secondary" onClick={() => setSelection(new Map())}>
                Clear selection
              </Button>
            </>
          )}
          {result && (
            <Message $tone={result.tone} role={result.tone === 'error' ? 'alert' : 'status'}>
              {result.text}
            </Message>
          )}
        </Bulk>
      )}
      {summary && (
        <FindingsTable
          summary={summary}
          updating={results.stale}
          rows={results.rows}
          version={results.version}
          live={liveById}
          onVisibleRows={onVisibleRows}
          search={search}
          onSearchChange={onSearchChange}
          findingHref={findingHref}
          selection={selection}
          onSelectionChange={(next) => {
            setResult(null)
            setSelection(next)
          }}
          caption="Findings of this service"
          now={now}
        />
      )}
      {move && (
        <MoveDialog
          open
          onOpenChange={(open) => !open && setMove(null)}
          action={move}
          title={findingActionLabels[move]}
          description={`${eligible(move).length} selected finding${eligible(move).length === 1 ? '' : 's'} can take this step.`}
          noteLabel={move === 'request_retest' ? 'What was changed' : 'Note'}
          onSubmit={(request, progress) => submit(move, request, progress)}
        />
      )}
    </>
  )
}

function FacetButtons<T extends string>({
  label,
  facet,
  values,
  labels,
  counts,
  search,
  onSearchChange,
}: {
  label: string
  facet: FindingsFacet
  values: readonly T[]
  labels: Record<T, string>
  /** Undefined until the index has answered. */
  counts: Record<string, number> | undefined
  search: FindingsSearch
  onSearchChange(next: FindingsSearch): void
}) {
  const chosen: readonly string[] = search[facet] ?? []
  return (
    <Facet>
      <legend>{label}</legend>
      {values.map((value) => (
        <Chip
          key={value}
          type="button"
          aria-pressed={chosen.includes(value)}
          onClick={() => onSearchChange(toggleFacet(search, facet, value))}
        >
          {labels[value]} {counts && <small>{formatNumber(counts[value] ?? 0)}</small>}
        </Chip>
      ))}
    </Facet>
  )
}
