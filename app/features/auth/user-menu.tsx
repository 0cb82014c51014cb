import { Link, useNavigate, useRouter } from '@tanstack/react-router'
import { IconBuilding, IconCheck, IconChevronDown, IconLogout, IconSearch, IconSettings } from '@tabler/icons-react'
import { DropdownMenu } from 'radix-ui'
import styled from 'styled-components'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { Avatar } from '~/ui/avatar'
import { notify } from '~/ui/notifications/notifications'
import { headerTrigger, menuItem, menuPanel } from '~/ui/menu'
import { useMenuClosingOnLeave } from '~/ui/menu-leave'
import { media, offsets } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { useCompanySwitch } from './use-company-switch'

const Trigger = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 10px;
  min-width: 0;
  max-width: 280px;
  min-height: 44px;
  padding: 4px 10px 4px 4px;
  ${headerTrigger}
  font: inherit;
`

const TriggerName = styled.span`
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  font-size: 14px;
  font-weight: 600;

  ${media.mobile} {
    display: none;
  }
`

const Content = styled(DropdownMenu.Content)`
  ${menuPanel}
  min-width: 260px;
  max-width: min(340px, calc(100vw - 16px));
`

const Identity = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  padding: 8px 10px 10px;

  strong,
  span {
    display: block;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  span {
    color: var(--color-text-muted);
    font-size: 13px;
  }
`

const Item = styled(DropdownMenu.Item)`
  ${menuItem}
`

const RadioItem = styled(DropdownMenu.RadioItem)`
  ${menuItem}
  padding-left: 36px;
  position: relative;
`

const Indicator = styled(DropdownMenu.ItemIndicator)`
  position: absolute;
  left: 10px;
  display: inline-flex;
`

const GroupLabel = styled(DropdownMenu.Label)`
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 8px 10px 4px;
  font-size: 12px;
  font-weight: 700;
  letter-spacing: 0.04em;
  text-transform: uppercase;
  color: var(--color-text-muted);
`

const Separator = styled(DropdownMenu.Separator)`
  height: 1px;
  margin: 6px 0;
  background: var(--color-border);
`

const Soon = styled.span`
  margin-left: auto;
  font-size: 12px;
`

/** Who is signed in: settings, search (not yet available), the company switch and sign-out. */
export function UserMenu({ session, workspace }: { session: Session; workspace: Workspace | null | undefined }) {
  const router = useRouter()
  const navigate = useNavigate()
  const { switching, switchTo } = useCompanySwitch(session)
  // A click before the page is interactive would do nothing: the button waits until it can open.
  const hydrated = useHydrated()
  const displayName = workspace?.preferences.displayName ?? ''
  const photoURL = workspace?.preferences.photoURL ?? ''
  const companies = workspace?.companies ?? []
  const menu = useMenuClosingOnLeave()

  const signOut = async () => {
    try {
      const { signOutEverywhere } = await import('~/core/session-live')
      await signOutEverywhere()
      await router.invalidate()
      await navigate({ to: '/' })
    } catch {
      notify({ tone: 'error', title: 'Sign-out failed', message: 'Please try again.' })
    }
  }

  return (
    <DropdownMenu.Root open={menu.open} onOpenChange={menu.setOpen}>
      <DropdownMenu.Trigger asChild>
        <Trigger type="button" aria-label="User menu" disabled={!hydrated}>
          <Avatar name={displayName} email={session.email} photoURL={photoURL} />
          {/* Cut short in the header: the whole name or address on hover. */}
          <TriggerName title={displayName || session.email}>{displayName || session.email}</TriggerName>
          <IconChevronDown size={16} aria-hidden="true" />
        </Trigger>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <Content align="end" sideOffset={offsets.popover} {...menu.pointer}>
          <Identity>
            <Avatar name={displayName} email={session.email} photoURL={photoURL} size={36} />
            <div style={{ minWidth: 0 }}>
              <strong title={displayName || session.email}>{displayName || session.email}</strong>
              {displayName && <span title={session.email}>{session.email}</span>}
            </div>
          </Identity>
          <Separator />
          <Item asChild>
            <Link to="/profile">
              <IconSettings size={18} aria-hidden="true" />
              Settings
            </Link>
          </Item>
          <Item disabled>
            <IconSearch size={18} aria-hidden="true" />
            Search
            <Soon>Coming soon</Soon>
          </Item>
          {companies.length > 1 && (
            <>
              <Separator />
              <DropdownMenu.Group>
                <GroupLabel>
                  <IconBuilding size={14} aria-hidden="true" />
                  Company
                </GroupLabel>
                <DropdownMenu.RadioGroup value={workspace?.company?.slug ?? ''} onValueChange={(slug) => void switchTo(slug)}>
                  {companies.map((company) => (
                    <RadioItem key={company.slug} value={company.slug} disabled={switching}>
                      <Indicator>
                        <IconCheck size={16} aria-hidden="true" />
                      </Indicator>
                      {company.companyName}
                    </RadioItem>
                  ))}
                </DropdownMenu.RadioGroup>
              </DropdownMenu.Group>
            </>
          )}
          <Separator />
          <Item onSelect={() => void signOut()}>
            <IconLogout size={18} aria-hidden="true" />
            Sign out
          </Item>
        </Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
