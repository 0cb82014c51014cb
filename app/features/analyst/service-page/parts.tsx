// Shared pieces of the analyst service page.
import styled, { css } from 'styled-components'
import type { ScanJob } from '#domain/scan-jobs.ts'
import { Button } from '~/ui/button'
import { surface } from '~/ui/surface'
import { fieldControl } from '~/ui/text-field'

export const Panel = styled.section`
  ${surface}
  padding: 18px 20px;
  display: flex;
  flex-direction: column;
  gap: 14px;
  min-width: 0;
  /* What is wider than the panel (a table on a phone) scrolls in it instead of widening the page;
     positioned, so that holds for what is placed absolutely in it too (visually hidden headers). */
  overflow-x: auto;
  position: relative;

  h2 {
    font-size: 17px;
    font-weight: 650;
    margin: 0;
  }
`

/** A button that reads as a link: a row's name that opens it. */
export const linkButton = css`
  padding: 0;
  border: 0;
  background: none;
  color: var(--color-primary);
  font: inherit;
  text-align: left;
  text-decoration: underline;
  cursor: pointer;
`

export const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;

  th,
  td {
    text-align: left;
    padding: 8px 10px;
    border-top: 1px solid var(--color-border);
    vertical-align: top;
  }
  th {
    color: var(--color-text-muted);
    font-weight: 600;
    border-top: 0;
  }
  button.link {
    ${linkButton}
  }
  tr[aria-current='true'] td {
    background: var(--color-primary-soft);
  }
  td.number {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
`

export const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px 12px;
  align-items: center;

  select {
    min-height: 38px;
    padding: 0 8px;
    /* A long option (a template's title) is cut in the closed box, never widens the page. */
    max-width: 100%;
  }
  textarea {
    max-width: 100%;
  }
`

export const Muted = styled.p`
  margin: 0;
  color: var(--color-text-muted);
`

export const Tag = styled.span<{ $tone?: 'warning' | 'primary' | 'muted' }>`
  display: inline-block;
  padding: 1px 8px;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  white-space: nowrap;
  border: 1px solid
    ${({ $tone }) => ($tone === 'warning' ? 'var(--color-warning)' : $tone === 'primary' ? 'var(--color-primary)' : 'var(--color-border)')};
  color: ${({ $tone }) => ($tone === 'warning' ? 'var(--color-text)' : $tone === 'primary' ? 'var(--color-primary)' : 'var(--color-text-muted)')};
`

export const ErrorText = styled.p`
  margin: 0;
  color: var(--color-danger);
`

export const FilterInput = styled.input`
  ${fieldControl}
  min-height: 38px;
  min-width: 240px;
`

/** What an agent's job has come to: its draft to review once imported, else its error or latest progress. */
export function JobOutcome({ job, onScan }: { job: Pick<ScanJob, 'scanId' | 'error' | 'progress'>; onScan(scanId: string): void }) {
  const { scanId } = job
  if (!scanId) return job.error ?? job.progress?.message ?? ''
  return (
    <Button type="button" $variant="secondary" onClick={() => onScan(scanId)}>
      Review the draft
    </Button>
  )
}
