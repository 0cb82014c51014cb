// One draft finding in full, opened from its row in the review: its text (which the analyst may
// rewrite), what the scanner said (evidence and, for DAST, the request and response it sent and
// got), its scores and ids, and every
// place it stands for: its own location and those of the findings merged into it. What a scanner
// sent is shown as text, never as markup: a response body is the client's page, not ours.
import { useId, useState } from 'react'
import styled from 'styled-components'
import type { FindingLocation } from '#domain/findings.ts'
import { formatNumber } from '#domain/numbers.ts'
import type { DraftFinding } from '#domain/scan-drafts.ts'
import type { ServiceId } from '#domain/services.ts'
import type { TemplateChoice } from '#domain/template-mappings.ts'
import { severityLabels } from '#domain/template-vocabulary.ts'
import { useLiveData } from '~/core/live-data'
import { Dialog } from '~/ui/dialog'
import { LiveStatus } from '~/ui/live-status'
import { SeverityBadge } from '~/ui/severity-badge'
import { fonts } from '~/ui/theme'
import { callAnalyst, failureMessage } from './analyst-calls'
import { DraftTextForm } from './draft-text-form'
import { ErrorText, Muted, Tag } from './parts'
import { TemplatePicker } from './template-picker'

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 6px 16px;
  margin: 0 0 18px;
  font-size: 14px;

  dt {
    color: var(--color-text-muted);
    font-weight: 600;
  }
  dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
`

const Section = styled.section`
  margin: 0 0 18px;

  h3 {
    font-size: 15px;
    font-weight: 650;
    margin: 0 0 6px;
  }
  p {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  ul {
    margin: 0;
    padding-left: 20px;
  }
`

/** A scanner's raw text: monospace, its own scroll box, never wider or taller than the bound. */
export const RawText = styled.pre`
  margin: 0;
  max-height: 320px;
  overflow: auto;
  padding: 10px 12px;
  border: 1px solid var(--color-border);
  border-radius: 8px;
  background: var(--color-bg);
  color: var(--color-text);
  font-family: ${fonts.mono};
  font-size: 13px;
  line-height: 1.45;
  white-space: pre-wrap;
  overflow-wrap: anywhere;

  &:focus-visible {
    outline: 2px solid var(--color-focus);
    outline-offset: 1px;
  }
`

/** Where a finding is, in the words of its kind of target: a URL and its method and parameter, a host's port, a cloud resource, an account. */
export function locationText(location: FindingLocation, asset: string): string {
  if (location.url)
    return [location.method, location.url, location.parameter && `(parameter ${location.parameter})`].filter(Boolean).join(' ')
  if (location.host) return `${location.host}${location.port ? `:${location.port}` : ''}${location.protocol ? `/${location.protocol}` : ''}`
  if (location.resource) return [location.resource, location.cloudService, location.region, location.account].filter(Boolean).join(', ')
  if (location.account) return location.domain ? `${location.domain}\\${location.account}` : location.account
  return asset
}

const list = (values: readonly string[]) => (values.length ? values.join(', ') : 'None given')

function Raw({ label, text, empty }: { label: string; text: string; empty: string }) {
  const heading = useId()
  return (
    <Section aria-labelledby={heading}>
      <h3 id={heading}>{label}</h3>
      {text ? (
        // Focusable, so the keyboard can scroll it.
        <RawText tabIndex={0} aria-labelledby={heading}>
          {text}
        </RawText>
      ) : (
        <Muted>{empty}</Muted>
      )}
    </Section>
  )
}

function Locations({ company, scanId, finding }: { company: string; scanId: string; finding: DraftFinding }) {
  const heading = useId()
  const merged = useLiveData(
    async () => (await import('./analyst-live')).watchMergedFindings(company, scanId, finding.id),
    [company, scanId, finding.id],
  )
  const members = merged.data?.items ?? []
  const instances = finding.instances + members.reduce((sum, member) => sum + member.instances, 0)
  return (
    <Section aria-labelledby={heading}>
      <h3 id={heading}>
        {merged.status === 'ready' ? `${formatNumber(instances)} ${instances === 1 ? 'instance' : 'instances'}` : `Instances`}
      </h3>
      <ul aria-label="Locations">
        <li>
          {locationText(finding.location, finding.asset)}
          {finding.instances > 1 && ` (seen ${formatNumber(finding.instances)} times)`}
        </li>
        {members.map((member) => (
          <li key={member.id}>
            {locationText(member.location, member.asset)}
            {member.instances > 1 && ` (seen ${formatNumber(member.instances)} times)`} <Tag $tone="muted">Merged: {member.title}</Tag>
          </li>
        ))}
      </ul>
      <LiveStatus live={merged} what="the findings merged into this one" />
      {merged.data?.more && <Muted>Only the first {formatNumber(members.length)} merged findings are listed.</Muted>}
    </Section>
  )
}

/** This finding's template, chosen here (and remembered for its rule), with the outcome in words. */
function TemplateChoiceOf({
  company,
  scanId,
  service,
  finding,
  templates,
}: {
  company: string
  scanId: string
  service: ServiceId
  finding: DraftFinding
  templates: readonly TemplateChoice[]
}) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null })
  async function pick(slug: string | null) {
    setState({ busy: true, error: null })
    try {
      await callAnalyst('reviewDraftFindings', {
        company,
        scanId,
        findingIds: [finding.id],
        review: { kind: 'template', templateSlug: slug, remember: slug !== null },
      })
      setState({ busy: false, error: null })
    } catch (failure) {
      setState({ busy: false, error: await failureMessage(failure) })
    }
  }
  return (
    <Section>
      <TemplatePicker service={service} templates={templates} finding={finding} disabled={state.busy} onPick={(slug) => void pick(slug)} />
      {state.error && <ErrorText role="alert">{state.error}</ErrorText>}
    </Section>
  )
}

export interface DraftFindingDetailProps {
  company: string
  scanId: string
  service: ServiceId
  /** The finding shown; null closes the panel. */
  finding: DraftFinding | null
  onClose(): void
  /** Where focus goes back when it closes: the row it was opened from. */
  returnFocus(): HTMLElement | null
  /** The library to map the finding to; null while it is not readable. */
  templates: readonly TemplateChoice[] | null
}

export function DraftFindingDetail({ company, scanId, service, finding, onClose, returnFocus, templates }: DraftFindingDetailProps) {
  return (
    <Dialog
      open={finding !== null}
      onOpenChange={(open) => !open && onClose()}
      wide
      returnFocus={returnFocus}
      title={finding?.title ?? ''}
      description={finding ? `${severityLabels[finding.severity]} on ${finding.asset}, reported by rule ${finding.ruleId}` : ''}
    >
      {finding && (
        <>
          <Facts aria-label="About this finding">
            <dt>Severity</dt>
            <dd>
              <SeverityBadge severity={finding.severity} />
              {finding.severityByHand && ' chosen by hand'}
              {finding.severity !== finding.scannerSeverity && ` (the scanner said ${severityLabels[finding.scannerSeverity]})`}
            </dd>
            <dt>CVSS</dt>
            <dd>{finding.cvss ? `${finding.cvss.score.toFixed(1)} (${finding.cvss.vector})` : 'None given'}</dd>
            <dt>CWE</dt>
            <dd>{list(finding.cwe)}</dd>
            <dt>CVE</dt>
            <dd>{list(finding.cve)}</dd>
            <dt>Fingerprint</dt>
            <dd>
              <code>{finding.id}</code>
            </dd>
            <dt>Template</dt>
            <dd>{finding.templateSlug ?? 'None yet: the scanner’s text is published'}</dd>
            {finding.falsePositive && (
              <>
                <dt>Review</dt>
                <dd>Marked a false positive: it is not published</dd>
              </>
            )}
          </Facts>
          {templates && <TemplateChoiceOf company={company} scanId={scanId} service={service} finding={finding} templates={templates} />}
          {/* Keyed by finding: another finding opened starts from its own text. */}
          <DraftTextForm key={finding.id} company={company} scanId={scanId} finding={finding} />
          <Raw label="Evidence" text={finding.evidence} empty="The scanner gave no evidence." />
          {(service === 'dast' || finding.request || finding.response) && (
            <>
              <Raw label="Request" text={finding.request} empty="The scanner kept no request." />
              <Raw label="Response" text={finding.response} empty="The scanner kept no response." />
            </>
          )}
          <Locations company={company} scanId={scanId} finding={finding} />
        </>
      )}
    </Dialog>
  )
}
