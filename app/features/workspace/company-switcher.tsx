import { useState } from 'react'
import styled from 'styled-components'
import type { Session } from '~/features/session/session'
import { notify } from '~/ui/notifications/notifications'
import { fieldControl } from '~/ui/text-field'
import type { Workspace } from './workspace'

const Select = styled.select`
  ${fieldControl}
  min-height: 36px;
  max-width: 220px;
  padding: 0 10px;
`

/** Shown only to people with more than one company; the choice becomes their default. */
export function CompanySwitcher({ session, workspace }: { session: Session; workspace: Workspace }) {
  const [saving, setSaving] = useState(false)
  if (workspace.companies.length < 2) return null
  const change = async (slug: string) => {
    setSaving(true)
    try {
      const { switchCompany } = await import('./workspace-live')
      await switchCompany(session, slug)
    } catch {
      notify({ tone: 'error', title: 'Company not switched', message: 'Please try again.' })
    } finally {
      setSaving(false)
    }
  }
  return (
    <Select
      aria-label="Company"
      value={workspace.company?.slug ?? ''}
      disabled={saving}
      onChange={(event) => void change(event.target.value)}
    >
      {workspace.companies.map((company) => (
        <option key={company.slug} value={company.slug}>
          {company.companyName}
        </option>
      ))}
    </Select>
  )
}
