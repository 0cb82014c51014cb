import { useEffect, useId, useState } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { IconAlertTriangle, IconRefresh, IconSearch } from '@tabler/icons-react'
import styled from 'styled-components'
import type { FindingTemplate } from '#domain/finding-template.ts'
import { severityLabels, templateStatusLabels, type Severity, type TemplateStatus } from '#domain/template-vocabulary.ts'
import { serviceById } from '#domain/services.ts'
import { TEMPLATE_SORTS } from '#domain/template-search.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import { fieldControl, Select, SelectOptions } from '~/ui/text-field'
import { media } from '~/ui/theme'
import { WhenHydrated } from '~/ui/use-hydrated'
import { highlightParts } from './highlight'
import { facetOptions, selectedValues, TEMPLATE_FACETS, type TemplateFacet, type TemplateListSearch } from './template-query'
import { useTemplateSearch, type FirstPage, type TemplateHit } from './use-template-search'
import { formatNumber } from '#domain/numbers.ts'

/** How long typing pauses before the list searches (search as you type, without a query per key). */
const TYPING_PAUSE_MS = 150

const Layout = styled.div`
  display: grid;
  grid-template-columns: 240px minmax(0, 1fr);
  gap: 24px;
  align-items: start;

  ${media.mobile} {
    grid-template-columns: minmax(0, 1fr);
  }
`

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
  margin-bottom: 16px;
`

const SearchBox = styled.label`
  position: relative;
  flex: 1 1 280px;
  display: flex;
  align-items: center;

  svg {
    position: absolute;
    left: 12px;
    color: var(--color-text-muted);
    pointer-events: none;
  }
  input {
    ${fieldControl}
    width: 100%;
    min-height: 42px;
    padding: 0 12px 0 38px;
  }
`

const OrderSelect = styled(Select)`
  min-height: 42px;
`

const Facets = styled.aside`
  display: grid;
  gap: 16px;

  fieldset {
    margin: 0;
    padding: 12px 14px;
    ${surface}
  }
  legend {
    padding: 0 4px;
    font-weight: 650;
    font-size: 14px;
  }
  label {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 3px 0;
    font-size: 14px;
    cursor: pointer;
  }
  .count {
    margin-left: auto;
    color: var(--color-text-muted);
    font-variant-numeric: tabular-nums;
  }
`

const FacetList = styled.div`
  max-height: 260px;
  overflow-y: auto;
`

const Summary = styled.p`
  margin: 0 0 12px;
  color: var(--color-text-muted);
  font-size: 14px;
`

const Results = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 10px;

  &[aria-busy='true'] {
    opacity: 0.6;
  }
`

const Row = styled.li`
  ${surface}
  padding: 14px 16px;
  display: grid;
  gap: 6px;

  a {
    font-weight: 650;
    font-size: 16px;
    color: var(--color-text);
    text-decoration: none;
  }
  a:hover {
    color: var(--color-primary);
    text-decoration: underline;
  }
  p {
    margin: 0;
    color: var(--color-text-muted);
    font-size: 14px;
  }
  mark {
    background: color-mix(in srgb, var(--color-warning) 30%, transparent);
    color: inherit;
    border-radius: 2px;
  }
`

const Meta = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
  font-size: 13px;
  color: var(--color-text-muted);
`

const Chip = styled.span`
  padding: 1px 8px;
  border-radius: 999px;
  border: 1px solid var(--color-border);
  font-size: 12px;
`

const Pager = styled.nav`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  margin-top: 16px;
`

const Alert = styled.div`
  ${surface}
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 12px;
  padding: 12px 16px;
  margin-bottom: 16px;
  border-color: var(--color-warning);

  p {
    flex: 1 1 240px;
    margin: 0;
  }
`

const Empty = styled.div`
  ${surface}
  padding: 32px;
  text-align: center;
  color: var(--color-text-muted);
`

const facetLegends: Record<TemplateFacet, string> = { severity: 'Severity', status: 'Status', services: 'Service', tags: 'Tag' }

function facetValueLabel(facet: TemplateFacet, value: string): string {
  if (facet === 'severity') return severityLabels[value as Severity] ?? value
  if (facet === 'status') return templateStatusLabels[value as TemplateStatus] ?? value
  if (facet === 'services') return serviceById(value)?.label ?? value
  return value
}

function Highlighted({ value }: { value: string }) {
  return <>{highlightParts(value).map((part, index) => (part.highlighted ? <mark key={index}>{part.text}</mark> : part.text))}</>
}

/** A row of the list, from a search hit or (search down) from the library itself. */
type ListedTemplate = Omit<TemplateHit, 'objectID' | '_highlightResult'> & {
  slug: string
  highlightedTitle?: string
  highlightedExcerpt?: string
}

const fromHit = (hit: TemplateHit): ListedTemplate => ({
  slug: hit.objectID,
  title: hit.title,
  severity: hit.severity,
  cvssScore: hit.cvssScore,
  tags: hit.tags,
  services: hit.services,
  status: hit.status,
  excerpt: hit.excerpt,
  highlightedTitle: hit._highlightResult?.title?.value,
  highlightedExcerpt: hit._highlightResult?.excerpt?.value,
})

const fromTemplate = (template: FindingTemplate): ListedTemplate => ({
  slug: template.slug,
  title: template.title,
  severity: template.severity,
  cvssScore: template.cvss?.score ?? null,
  tags: template.tags,
  services: template.services,
  status: template.status,
  excerpt: '',
})

function TemplateRow({ template }: { template: ListedTemplate }) {
  return (
    <Row>
      <Link to="/templates/finding" search={{ template: template.slug }}>
        <Highlighted value={template.highlightedTitle ?? template.title} />
      </Link>
      <Meta>
        {(template.severity as Severity) in severityLabels && <SeverityBadge severity={template.severity as Severity} />}
        {template.cvssScore !== null && <span>CVSS {template.cvssScore.toFixed(1)}</span>}
        <span>{templateStatusLabels[template.status as TemplateStatus] ?? template.status}</span>
        {template.services.map((service) => (
          <span key={service}>{serviceById(service)?.label ?? service}</span>
        ))}
        {template.tags.map((tag) => (
          <Chip key={tag}>{tag}</Chip>
        ))}
      </Meta>
      {(template.highlightedExcerpt ?? template.excerpt) && (
        <p>
          <Highlighted value={template.highlightedExcerpt ?? template.excerpt} />
        </p>
      )}
    </Row>
  )
}

/** The library searched as you type, with facets, orders and pages; a plain listing when search is down. */
export function TemplateList({ search, firstPage }: { search: TemplateListSearch; firstPage?: FirstPage }) {
  const navigate = useNavigate({ from: '/templates/finding' })
  const searchId = useId()
  const [typed, setTyped] = useState(search.q ?? '')
  const { state, retry } = useTemplateSearch(search, firstPage)

  const update = (changes: Partial<TemplateListSearch>) =>
    void navigate({ search: (previous) => ({ ...previous, page: 0, ...changes }), replace: true })

  useEffect(() => {
    if (typed === (search.q ?? '')) return
    const timer = setTimeout(() => update({ q: typed }), TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  })

  const toggle = (facet: TemplateFacet, value: string, on: boolean) => {
    const selected = selectedValues(search, facet)
    const next = on ? [...selected, value] : selected.filter((v) => v !== value)
    update({ [facet]: next.length > 0 ? next : undefined })
  }

  const result = state.result
  return (
    <>
      <Toolbar role="search">
        <SearchBox htmlFor={searchId}>
          <IconSearch size={18} aria-hidden="true" />
          {/* The first page arrives with the HTML: searching waits for the app, so nothing typed is lost. */}
          <WhenHydrated>
            {(hydrated) => (
              <input
                id={searchId}
                type="search"
                aria-label="Search templates"
                placeholder="Search by title, CWE, tag or text"
                value={typed}
                disabled={!hydrated}
                onChange={(event) => setTyped(event.target.value)}
              />
            )}
          </WhenHydrated>
        </SearchBox>
        <WhenHydrated>
          {(hydrated) => (
            <OrderSelect
              aria-label="Order"
              value={search.sort ?? 'relevance'}
              disabled={!hydrated}
              onChange={(event) => update({ sort: event.target.value as TemplateListSearch['sort'] })}
            >
              <SelectOptions options={TEMPLATE_SORTS.map((sort) => ({ value: sort.id, label: sort.label }))} />
            </OrderSelect>
          )}
        </WhenHydrated>
      </Toolbar>

      {state.status === 'unreachable' ? (
        <FallbackListing search={search} onRetry={retry} />
      ) : (
        <Layout>
          <Facets aria-label="Filters">
            {TEMPLATE_FACETS.map((facet) => {
              const counts = result?.facets[facet] ?? {}
              const selected = selectedValues(search, facet)
              const options = facetOptions(facet, counts, selected)
              if (options.length === 0) return null
              return (
                <fieldset key={facet}>
                  <legend>{facetLegends[facet]}</legend>
                  {/* A long list scrolls; the keyboard can reach and scroll it even while its boxes wait for the page to hydrate. */}
                  <FacetList tabIndex={0}>
                    {options.map((value) => (
                      <label key={value}>
                        <WhenHydrated>
                          {(hydrated) => (
                            <input
                              type="checkbox"
                              checked={selected.includes(value)}
                              disabled={!hydrated}
                              onChange={(event) => toggle(facet, value, event.target.checked)}
                            />
                          )}
                        </WhenHydrated>
                        {facetValueLabel(facet, value)}
                        <span className="count">{counts[value] ?? 0}</span>
                      </label>
                    ))}
                  </FacetList>
                </fieldset>
              )
            })}
          </Facets>
          <section aria-label="Templates found">
            <Summary role="status">
              {result ? `${formatNumber(result.nbHits)} ${result.nbHits === 1 ? 'template' : 'templates'}` : 'Searching…'}
            </Summary>
            {result && result.hits.length === 0 ? (
              <Empty>
                <p>No template matches this search.</p>
                <Button
                  type="button"
                  $variant="secondary"
                  onClick={() => {
                    setTyped('')
                    update({ q: '', severity: undefined, status: undefined, services: undefined, tags: undefined })
                  }}
                >
                  Clear search and filters
                </Button>
              </Empty>
            ) : (
              <Results aria-busy={state.status === 'loading'}>
                {result?.hits.map((hit) => (
                  <TemplateRow key={hit.objectID} template={fromHit(hit)} />
                ))}
              </Results>
            )}
            {result && result.nbPages > 1 && (
              <Pager aria-label="Pages">
                <Button type="button" $variant="secondary" disabled={result.page === 0} onClick={() => update({ page: result.page - 1 })}>
                  Previous
                </Button>
                <span>
                  Page {result.page + 1} of {result.nbPages}
                </span>
                <Button
                  type="button"
                  $variant="secondary"
                  disabled={result.page + 1 >= result.nbPages}
                  onClick={() => update({ page: result.page + 1 })}
                >
                  Next
                </Button>
              </Pager>
            )}
          </section>
        </Layout>
      )}
    </>
  )
}

/** Search is unreachable: say so, offer a retry, and list the latest templates from the library itself. */
function FallbackListing({ search, onRetry }: { search: TemplateListSearch; onRetry(): void }) {
  const latest = useLiveData(() => import('./template-library-live').then((library) => library.watchLatestTemplates()), [])

  const words = (search.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  const shown = (latest.data ?? []).filter(
    (template) =>
      words.every((word) => template.title.toLowerCase().includes(word)) &&
      TEMPLATE_FACETS.every((facet) => {
        const selected = selectedValues(search, facet)
        const values: readonly string[] = Array.isArray(template[facet]) ? (template[facet] as string[]) : [template[facet] as string]
        return selected.length === 0 || selected.some((value) => values.includes(value))
      }),
  )
  return (
    <>
      <Alert role="alert">
        <IconAlertTriangle size={20} color="var(--color-warning)" aria-hidden="true" />
        <p>Search is unreachable right now. Below are the most recently edited templates, filtered by title.</p>
        <Button type="button" $variant="secondary" onClick={onRetry}>
          <IconRefresh size={18} aria-hidden="true" />
          Retry search
        </Button>
      </Alert>
      {latest.status !== 'ready' ? (
        <LiveStatus live={latest} what="the latest templates" />
      ) : (
        <section aria-label="Templates found">
          <Summary role="status">
            {shown.length} of the {latest.data.length} latest templates
          </Summary>
          <Results>
            {shown.map((template) => (
              <TemplateRow key={template.slug} template={fromTemplate(template)} />
            ))}
          </Results>
        </section>
      )}
    </>
  )
}
