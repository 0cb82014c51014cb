import { IconBuilding, IconCheck, IconChevronDown } from '@tabler/icons-react'
import { DropdownMenu } from 'radix-ui'
import styled from 'styled-components'
import { showsCompanyName } from '#domain/access.ts'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { headerTrigger, menuItem, menuPanel } from '~/ui/menu'
import { useMenuClosingOnLeave } from '~/ui/menu-leave'
import { media, offsets } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { useCompanySwitch } from './use-company-switch'

const Name = styled.span`
  min-width: 0;
  font-weight: 650;
  white-space: nowrap;
  overflow: hidden;
  text-overflow: ellipsis;
`

const Plain = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-width: 0;

  ${media.mobile} {
    display: none;
  }
`

const Trigger = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  min-width: 0;
  max-width: 240px;
  min-height: 40px;
  padding: 4px 10px 4px 12px;
  ${headerTrigger}
  font: inherit;
  font-size: 14px;

  /* A phone's header has no room for the name: the button still says it (aria-label, and the menu ticks it). */
  ${media.mobile} {
    padding: 4px 8px;

    ${Name} {
      display: none;
    }
  }
`

const Content = styled(DropdownMenu.Content)`
  ${menuPanel}
  min-width: 220px;
  max-width: min(320px, calc(100vw - 16px));
`

const Label = styled(DropdownMenu.Label)`
  padding: 8px 10px 4px;
  font-size: 12px;
  font-weight: 700;
  letter-spacing: 0.04em;
  text-transform: uppercase;
  color: var(--color-text-muted);
`

const RadioItem = styled(DropdownMenu.RadioItem)`
  ${menuItem}
  position: relative;
  padding-left: 36px;
`

const Indicator = styled(DropdownMenu.ItemIndicator)`
  position: absolute;
  left: 10px;
  display: inline-flex;
`

/**
 * The company the workspace shows, in the header: for analysts and for everyone with
 * more than one company, who switch from here in one click.
 */
export function CompanySwitcher({ session, workspace }: { session: Session; workspace: Workspace | null | undefined }) {
  const { switching, switchTo: switchCompany } = useCompanySwitch(session)
  const hydrated = useHydrated()
  const menu = useMenuClosingOnLeave()
  const company = workspace?.company
  const companies = workspace?.companies ?? []
  if (!workspace || !company) return null

  if (companies.length <= 1) {
    if (!showsCompanyName(workspace.access)) return null
    return (
      <Plain>
        <IconBuilding size={16} aria-hidden="true" />
        <Name data-testid="company-name">{company.companyName}</Name>
      </Plain>
    )
  }

  const switchTo = async (slug: string) => {
    if (slug !== company.slug) await switchCompany(slug)
  }

  return (
    <DropdownMenu.Root open={menu.open} onOpenChange={menu.setOpen}>
      <DropdownMenu.Trigger asChild>
        <Trigger type="button" aria-label={`Company: ${company.companyName}. Switch company`} disabled={!hydrated} aria-busy={switching}>
          <IconBuilding size={16} aria-hidden="true" />
          <Name data-testid="company-name">{company.companyName}</Name>
          <IconChevronDown size={14} aria-hidden="true" />
        </Trigger>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <Content align="end" sideOffset={offsets.popover} {...menu.pointer}>
          <Label>Switch company</Label>
          <DropdownMenu.RadioGroup value={company.slug} onValueChange={(slug) => void switchTo(slug)}>
            {companies.map((c) => (
              <RadioItem key={c.slug} value={c.slug} disabled={switching}>
                <Indicator>
                  <IconCheck size={16} aria-hidden="true" />
                </Indicator>
                {c.companyName}
              </RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
