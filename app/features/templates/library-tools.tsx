import { useId, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { IconDownload, IconPlus, IconUpload } from '@tabler/icons-react'
import styled from 'styled-components'
import { callLazily } from '~/core/call-lazily'
import { cluster } from '~/ui/layout'
import { slugifyTitle, TEMPLATE_IMPORT_MAX_BYTES, type TemplateImportRow } from '#domain/template-library-calls.ts'
import { SEVERITIES, severityLabels, type Severity } from '#domain/template-vocabulary.ts'
import type { Session } from '~/core/session'
import { isFiltered, templateSearchRequests, type TemplateListSearch } from './template-query'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { notify } from '~/ui/notifications/notifications'
import { Field, FormMessage, Label, Select, TextField } from '~/ui/text-field'

const Bar = styled.div`
  ${cluster('8px')}
`

const Form = styled.form`
  display: grid;
  gap: 16px;
`

const Report = styled.div`
  max-height: 50vh;
  overflow: auto;

  table {
    width: 100%;
    border-collapse: collapse;
    font-size: 14px;
  }
  th,
  td {
    text-align: left;
    padding: 6px 8px;
    border-bottom: 1px solid var(--color-border);
    vertical-align: top;
  }
  td:last-child {
    overflow-wrap: anywhere;
  }
`

const outcomeLabels: Record<TemplateImportRow['outcome'], string> = {
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  refused: 'Refused',
}

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = Object.assign(document.createElement('a'), { href: url, download: name })
  link.click()
  URL.revokeObjectURL(url)
}

/**
 * New template, import, and export of what the list shows: the whole library when nothing is
 * filtered, else the templates its query and filters match. `onImported` lets the list search again.
 */
export function LibraryTools({ session, search, onImported }: { session: Session; search: TemplateListSearch; onImported(): void }) {
  const filtered = isFiltered(search)
  const [creating, setCreating] = useState(false)
  const [report, setReport] = useState<{ fileName: string; rows: TemplateImportRow[] } | null>(null)
  const [importing, setImporting] = useState(false)
  // The export on its way, if any: its button says so, and both wait for it.
  const [exporting, setExporting] = useState<'json' | 'csv' | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)

  const exportAs = async (format: 'json' | 'csv') => {
    setExporting(format)
    try {
      const [{ readWholeLibrary }, transfer] = await Promise.all([
        import('./template-library-live'),
        import('#domain/template-transfer.ts'),
      ])
      const library = await readWholeLibrary()
      let templates = library
      if (filtered) {
        const { matchingTemplateSlugs } = await import('./template-search-client')
        const [request] = templateSearchRequests(search)
        const shown = await matchingTemplateSlugs(request!)
        templates = library.filter((template) => shown.has(template.slug))
      }
      const day = new Date().toISOString().slice(0, 10)
      const name = `finding-templates-${filtered ? 'filtered' : 'all'}-${day}`
      if (format === 'json') download(`${name}.json`, 'application/json', transfer.exportTemplatesJson(templates))
      else download(`${name}.csv`, 'text/csv;charset=utf-8', transfer.exportTemplatesCsv(templates))
      notify({ tone: 'success', title: `Exported ${templates.length} ${templates.length === 1 ? 'template' : 'templates'}` })
    } catch {
      notify({ tone: 'error', title: 'Export failed', message: 'The library could not be read. Please try again.' })
    } finally {
      setExporting(null)
    }
  }

  const importFile = async (file: File) => {
    if (file.size > TEMPLATE_IMPORT_MAX_BYTES) {
      notify({ tone: 'error', title: 'File too large', message: `Import files up to ${TEMPLATE_IMPORT_MAX_BYTES / 1024 / 1024} MB.` })
      return
    }
    setImporting(true)
    try {
      const { rows } = await callLazily('importFindingTemplates', { fileName: file.name, text: await file.text() })
      setReport({ fileName: file.name, rows })
      onImported()
    } catch (error) {
      notify({ tone: 'error', title: 'Import failed', message: error instanceof Error ? error.message : String(error) })
    } finally {
      setImporting(false)
      if (fileInput.current) fileInput.current.value = ''
    }
  }

  const counts = report
    ? (Object.keys(outcomeLabels) as TemplateImportRow['outcome'][]).map(
        (outcome) => [outcome, report.rows.filter((row) => row.outcome === outcome).length] as const,
      )
    : []

  return (
    <Bar>
      <Button type="button" onClick={() => setCreating(true)}>
        <IconPlus size={18} aria-hidden="true" />
        New template
      </Button>
      <Button type="button" $variant="secondary" disabled={importing} aria-busy={importing} onClick={() => fileInput.current?.click()}>
        <IconUpload size={18} aria-hidden="true" />
        {importing ? 'Importing…' : 'Import'}
      </Button>
      <input
        ref={fileInput}
        type="file"
        accept=".json,.csv,application/json,text/csv"
        hidden
        aria-label="Template file to import"
        onChange={(event) => {
          const file = event.target.files?.[0]
          if (file) void importFile(file)
        }}
      />
      {(['json', 'csv'] as const).map((format) => (
        <Button
          key={format}
          type="button"
          $variant="secondary"
          disabled={exporting !== null}
          aria-busy={exporting === format}
          onClick={() => void exportAs(format)}
        >
          <IconDownload size={18} aria-hidden="true" />
          {exporting === format
            ? `Exporting (${format.toUpperCase()})…`
            : `${filtered ? 'Export filtered' : 'Export all'} (${format.toUpperCase()})`}
        </Button>
      ))}
      <NewTemplateDialog open={creating} onOpenChange={setCreating} session={session} />
      <Dialog
        open={report !== null}
        onOpenChange={(open) => !open && setReport(null)}
        title="Import report"
        description={
          report
            ? `${report.fileName}: ${counts.map(([outcome, count]) => `${count} ${outcomeLabels[outcome].toLowerCase()}`).join(', ')}.`
            : ''
        }
      >
        <Report>
          <table>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Template</th>
                <th scope="col">Outcome</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {report?.rows.map((row) => (
                <tr key={row.row}>
                  <td>{row.row}</td>
                  <td>{row.slug ?? '—'}</td>
                  <td>{outcomeLabels[row.outcome]}</td>
                  <td>{row.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Report>
      </Dialog>
    </Bar>
  )
}

function NewTemplateDialog({ open, onOpenChange, session }: { open: boolean; onOpenChange(open: boolean): void; session: Session }) {
  const navigate = useNavigate()
  const severityId = useId()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const title = String(form.get('title') ?? '').trim()
    const severity = String(form.get('severity')) as Severity
    if (!title) {
      setError('Give the template a title.')
      return
    }
    setBusy(true)
    setError(null)
    try {
      const [live, { createTemplate }] = await Promise.all([import('./template-library-live'), import('./template-writes')])
      const slug = slugifyTitle(title)
      await createTemplate(live.libraryFirestore(), { slug, title, severity, status: 'draft' }, session.email)
      onOpenChange(false)
      await navigate({ to: '/templates/finding', search: { template: slug } })
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The template was not created. Please try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title="New template"
      description="Start with a title and a severity; the rest is edited on the template's page."
    >
      <Form onSubmit={(event) => void create(event)} noValidate>
        <TextField label="Title" name="title" required maxLength={220} autoComplete="off" aria-invalid={error !== null || undefined} />
        <Field>
          <Label htmlFor={severityId}>Severity</Label>
          <Select id={severityId} name="severity" defaultValue="medium">
            {SEVERITIES.map((severity) => (
              <option key={severity} value={severity}>
                {severityLabels[severity]}
              </option>
            ))}
          </Select>
        </Field>
        {error && <FormMessage $tone="error">{error}</FormMessage>}
        <DialogActions>
          <Button type="button" $variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy} aria-busy={busy}>
            Create
          </Button>
        </DialogActions>
      </Form>
    </Dialog>
  )
}
