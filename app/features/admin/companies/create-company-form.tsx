// A new company: its name (the slug follows from it), its service switches (those of the services
// new companies get, from the catalogue, ticked to start with) and its scan scope.
import { useEffect, useState, type FormEvent } from 'react'
import { useNavigate } from '@tanstack/react-router'
import styled from 'styled-components'
import * as v from 'valibot'
import { allCompanyFlags, COMPANY_FLAGS } from '#domain/access.ts'
import { COMPANY_FLAG_LABELS, CreateCompanyRequestSchema, slugFromName } from '#domain/company-admin.ts'
import { scopeEntryKey, type ScopeEntry } from '#domain/scan-scope.ts'
import { defaultCompanyFlags } from '#domain/service-catalogue.ts'
import { callLazily } from '~/core/call-lazily'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { CheckboxGroup } from '~/ui/checkbox-grid'
import { notify } from '~/ui/notifications/notifications'
import { FormMessage, TextField } from '~/ui/text-field'
import { useHydrated } from '~/ui/use-hydrated'
import { Muted, OrgSection } from '../org/org-section'
import { errorText, type FlagValues } from './flags-field'
import { ScopeEditor } from './scope-editor'

const Form = styled.form`
  display: grid;
  gap: 0;
  max-width: 880px;
`

export function CreateCompanyForm() {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const catalogue = useLiveData(() => import('../org/org-live').then((live) => live.watchCatalogue), [])
  const [name, setName] = useState('')
  const [flags, setFlags] = useState<FlagValues>(allCompanyFlags(false))
  const [touched, setTouched] = useState(false)
  const [scope, setScope] = useState<ScopeEntry[]>([])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  // The catalogue's defaults, until the person chooses otherwise.
  const defaults = catalogue.status === 'ready' ? defaultCompanyFlags(catalogue.data) : null
  useEffect(() => {
    if (defaults && !touched) setFlags(defaults)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the catalogue changes
  }, [catalogue.data])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = v.safeParse(CreateCompanyRequestSchema, { companyName: name, flags, scanScope: scope })
    if (!parsed.success) return setError(parsed.issues[0].message)
    setBusy(true)
    setError(null)
    try {
      const { slug } = await callLazily('createCompany', parsed.output)
      notify({ tone: 'success', title: 'Company created', message: `${parsed.output.companyName} (${slug})` })
      await navigate({ to: '/admin/company', search: { company: slug } })
    } catch (failure) {
      setError(errorText(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Form onSubmit={submit} aria-label="Create company" noValidate>
      <OrgSection aria-labelledby="new-company-title">
        <h2 id="new-company-title">Company</h2>
        <TextField
          label="Company name"
          value={name}
          disabled={!hydrated}
          maxLength={120}
          onChange={(e) => {
            setName(e.target.value)
            setError(null)
          }}
        />
        <Muted>Slug: {name.trim() ? slugFromName(name) : '—'} (a number follows if it is taken)</Muted>
        <CheckboxGroup disabled={!hydrated}>
          <legend>Services</legend>
          {COMPANY_FLAGS.map((flag) => (
            <label key={flag}>
              <input
                type="checkbox"
                checked={flags[flag]}
                onChange={(e) => {
                  setTouched(true)
                  setFlags({ ...flags, [flag]: e.target.checked })
                }}
              />
              {COMPANY_FLAG_LABELS[flag]}
            </label>
          ))}
        </CheckboxGroup>
      </OrgSection>
      <OrgSection aria-labelledby="new-scope-title">
        <h2 id="new-scope-title">Scan scope</h2>
        <p>The domains, hosts, IP ranges and URLs the analysts may test. More can be added later.</p>
        <ScopeEditor
          entries={scope}
          onAdd={async (entry) => setScope((current) => [...current, entry])}
          onRemove={async (entry) => setScope((current) => current.filter((e) => scopeEntryKey(e) !== scopeEntryKey(entry)))}
        />
      </OrgSection>
      {error && <FormMessage $tone="error">{error}</FormMessage>}
      <div>
        <Button type="submit" disabled={!hydrated || busy}>
          {busy ? 'Creating…' : 'Create company'}
        </Button>
      </div>
    </Form>
  )
}
