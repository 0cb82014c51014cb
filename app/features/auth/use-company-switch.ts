// Switching the active company, from the header's company switcher or the user menu: busy while
// the choice is saved, and a notice when it could not be.
import { useState } from 'react'
import type { Session } from '~/core/session'
import { notify } from '~/ui/notifications/notifications'

export function useCompanySwitch(session: Session) {
  const [switching, setSwitching] = useState(false)
  const switchTo = async (slug: string) => {
    setSwitching(true)
    try {
      const { switchCompany } = await import('~/core/workspace-live')
      await switchCompany(session, slug)
    } catch {
      notify({ tone: 'error', title: 'Company not switched', message: 'Please try again.' })
    } finally {
      setSwitching(false)
    }
  }
  return { switching, switchTo }
}
