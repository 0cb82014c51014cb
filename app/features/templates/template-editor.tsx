import { useState } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { IconArrowLeft, IconTrash } from '@tabler/icons-react'
import * as v from 'valibot'
import styled from 'styled-components'
import { callLazily } from '~/core/call-lazily'
import { cluster } from '~/ui/layout'
import {
  SEVERITIES,
  severityLabels,
  TEMPLATE_LIMITS,
  TEMPLATE_STATUSES,
  templateFieldSchemas,
  templateIssuesMessage,
  templateStatusLabels,
} from '#domain/finding-template.ts'
import { services } from '#domain/services.ts'
import { useLiveData } from '~/core/live-data'
import type { Session } from '~/core/session'
import { AutosaveFieldFrame, describedBy, saveError, useFieldIds } from '~/ui/autosave/autosave-field-frame'
import { AutosaveSelectField } from '~/ui/autosave/autosave-select-field'
import { AutosaveTextField } from '~/ui/autosave/autosave-text-field'
import { useAutosave } from '~/ui/autosave/use-autosave'
import { Button } from '~/ui/button'
import { Dialog, DialogActions } from '~/ui/dialog'
import { Notice } from '~/ui/notice'
import { notify } from '~/ui/notifications/notifications'
import { SeverityBadge } from '~/ui/severity-badge'
import { surface } from '~/ui/surface'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage } from '~/ui/text-field'
import { media } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { CvssField } from './components/cvss-field'
import { MarkdownField } from './components/markdown-field'
import { TagInput } from './components/tag-input'
import type { SavedField } from './template-writes'
import { LocalTime } from '~/ui/local-time'

const Header = styled.header`
  ${cluster('12px')}
  justify-content: space-between;
  margin-bottom: 20px;

  h1 {
    margin: 4px 0 0;
    font-size: 24px;
  }
  p {
    margin: 4px 0 0;
    color: var(--color-text-muted);
    font-size: 14px;
  }
`

const Back = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  font-size: 14px;
`

const Grid = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr);
  gap: 20px;
  align-items: start;

  ${media.mobile} {
    grid-template-columns: minmax(0, 1fr);
  }
`

const Panel = styled.section`
  ${surface}
  display: grid;
  gap: 20px;
  padding: 20px;
  min-width: 0;
`

const Checks = styled.div`
  display: grid;
  gap: 4px;

  label {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 14px;
  }
`

const DangerButton = styled(Button)`
  color: var(--color-danger);
`

const ConfirmActions = styled(DialogActions)`
  margin-top: 16px;
`

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, index) => item === b[index])

/** The first problem of a value for a field, in words; null when it may be saved. */
const problemOf = (field: keyof typeof templateFieldSchemas, value: unknown): string | null => {
  const result = v.safeParse(templateFieldSchemas[field], value)
  return result.success ? null : templateIssuesMessage(result.issues)
}

const splitList = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((item) => item.trim())
    .filter(Boolean)

async function writes() {
  const [live, templateWrites] = await Promise.all([import('./template-library-live'), import('./template-writes')])
  return { db: live.libraryFirestore(), ...templateWrites }
}

/** One template, every field saved as it is edited, changes by others shown live. */
export function TemplateEditor({ slug, session }: { slug: string; session: Session }) {
  const live = useLiveData(() => import('./template-library-live').then((library) => library.watchTemplate(slug)), [slug])
  // Suggestions only: without them, tags are typed in full.
  const tagCounts = useLiveData(() => import('./template-library-live').then((library) => library.watchTagCounts()), []).data ?? []

  if (live.status !== 'ready') return <LiveStatus live={live} what="the template" />
  const template = live.data
  if (template === null) {
    return (
      <Notice title="There is no such template">
        <p>It may have been deleted.</p>
        <Link to="/templates/finding">Back to the templates</Link>
      </Notice>
    )
  }

  const save =
    <F extends SavedField>(field: F) =>
    async (value: v.InferInput<(typeof templateFieldSchemas)[F]>) => {
      const { db, saveTemplateField } = await writes()
      await saveTemplateField(db, slug, field, value, session.email)
    }

  return (
    <>
      <Header>
        <div>
          <Back to="/templates/finding">
            <IconArrowLeft size={16} aria-hidden="true" />
            All templates
          </Back>
          <h1>{template.title}</h1>
          <p>
            <SeverityBadge severity={template.severity} /> Last saved by {template.updatedBy}, <LocalTime at={template.updatedAt} />
          </p>
        </div>
        <DeleteTemplate slug={slug} title={template.title} />
      </Header>
      <Grid>
        <Panel aria-label="Content">
          <AutosaveTextField
            label="Title"
            saved={template.title}
            validate={(value) => problemOf('title', value)}
            save={save('title')}
            inputProps={{ maxLength: TEMPLATE_LIMITS.titleLength + 20 }}
          />
          <CvssField saved={template.cvss} save={save('cvss')} />
          <MarkdownField
            label="Description"
            saved={template.description}
            save={save('description')}
            maxLength={TEMPLATE_LIMITS.markdownLength}
          />
          <MarkdownField label="Impact" saved={template.impact} save={save('impact')} maxLength={TEMPLATE_LIMITS.markdownLength} />
          <MarkdownField
            label="Remediation"
            saved={template.remediation}
            save={save('remediation')}
            maxLength={TEMPLATE_LIMITS.markdownLength}
          />
        </Panel>
        <Panel aria-label="Classification">
          <AutosaveSelectField
            label="Severity"
            saved={template.severity}
            options={SEVERITIES.map((severity) => ({ value: severity, label: severityLabels[severity] }))}
            save={save('severity')}
          />
          <AutosaveSelectField
            label="Status"
            saved={template.status}
            options={TEMPLATE_STATUSES.map((status) => ({ value: status, label: templateStatusLabels[status] }))}
            save={save('status')}
            hint="Deprecated templates stay for old reports but are not offered for new findings."
          />
          <TagInput
            saved={template.tags}
            suggestions={tagCounts}
            onAdd={async (tag) => {
              const { db, addTag } = await writes()
              await addTag(db, slug, tag, session.email)
            }}
            onRemove={async (tag) => {
              const { db, removeTag } = await writes()
              await removeTag(db, slug, tag, session.email)
            }}
          />
          <ServicesField saved={template.services} save={save('services')} />
          <AutosaveTextField
            label="CWE ids"
            saved={template.cwe.join(', ')}
            validate={(value) => problemOf('cwe', splitList(value, /[\s,;]+/))}
            save={(value) => save('cwe')(splitList(value, /[\s,;]+/))}
            hint="For example CWE-79, CWE-89."
          />
          <AutosaveTextField
            label="References"
            multiline
            saved={template.references.join('\n')}
            validate={(value) => problemOf('references', splitList(value, /\n/))}
            save={(value) => save('references')(splitList(value, /\n/))}
            hint="One https address per line."
          />
        </Panel>
      </Grid>
    </>
  )
}

/** Which services a template serves: checkboxes saved together after the text pause. */
function ServicesField({ saved, save }: { saved: string[]; save(value: string[]): Promise<void> }) {
  const ids = useFieldIds()
  const hydrated = useHydrated()
  const field = useAutosave<string[]>({
    variant: 'text',
    saved,
    save,
    equals: sameList,
    validate: (value) => problemOf('services', value),
  })
  const error = saveError(field)
  const toggle = (id: string, on: boolean) =>
    field.type(services.map((service) => service.id).filter((serviceId) => (serviceId === id ? on : field.value.includes(serviceId))))
  return (
    <AutosaveFieldFrame
      ids={ids}
      label="Services"
      field={field}
      savedText={field.saved.map((id) => services.find((service) => service.id === id)?.label ?? id).join(', ')}
      errors={[error]}
    >
      <Checks id={ids.control} role="group" aria-label="Services" aria-describedby={describedBy(error && ids.error)}>
        {services.map((service) => (
          <label key={service.id}>
            <input
              type="checkbox"
              disabled={!hydrated}
              checked={field.value.includes(service.id)}
              onChange={(event) => toggle(service.id, event.target.checked)}
            />
            {service.label}
          </label>
        ))}
      </Checks>
    </AutosaveFieldFrame>
  )
}

/**
 * Deleting asks first, saying up front when findings use the template (the server refuses those);
 * after a refusal the button stays disabled, as pressing again would only be refused again.
 */
function DeleteTemplate({ slug, title }: { slug: string; title: string }) {
  const navigate = useNavigate()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<string | null>(null)
  const [inUse, setInUse] = useState<number | null>(null)

  const openDialog = async () => {
    setOpen(true)
    setRefusal(null)
    setInUse(null)
    try {
      const { findings } = await callLazily('deleteFindingTemplate', { slug, check: true })
      setInUse(findings ?? 0)
    } catch {
      // Unknown: the delete itself still checks.
      setInUse(0)
    }
  }

  const remove = async () => {
    setBusy(true)
    setRefusal(null)
    try {
      await callLazily('deleteFindingTemplate', { slug })
      setOpen(false)
      notify({ tone: 'success', title: 'Template deleted', message: title })
      await navigate({ to: '/templates/finding' })
    } catch (error) {
      setRefusal(error instanceof Error ? error.message : 'The template was not deleted. Please try again.')
    } finally {
      setBusy(false)
    }
  }

  const blocked = refusal !== null || (inUse ?? 0) > 0
  return (
    <>
      <DangerButton type="button" $variant="secondary" onClick={() => void openDialog()}>
        <IconTrash size={18} aria-hidden="true" />
        Delete
      </DangerButton>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!busy) setOpen(next)
          if (!next) setRefusal(null)
        }}
        title="Delete this template?"
        description={`“${title}” and its tags are removed from the library. This cannot be undone.`}
      >
        {inUse !== null && inUse > 0 && !refusal && (
          <FormMessage $tone="error">
            {inUse} {inUse === 1 ? 'finding uses' : 'findings use'} this template: it can be deleted once no finding does.
          </FormMessage>
        )}
        {refusal && <FormMessage $tone="error">{refusal}</FormMessage>}
        <ConfirmActions>
          <Button type="button" $variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
            Cancel
          </Button>
          <DangerButton
            type="button"
            $variant="secondary"
            onClick={() => void remove()}
            disabled={busy || inUse === null || blocked}
            aria-busy={busy || inUse === null}
          >
            Delete template
          </DangerButton>
        </ConfirmActions>
      </Dialog>
    </>
  )
}
