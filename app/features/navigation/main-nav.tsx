import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { navItems, type NavItem } from './nav-items'

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 12px;
  display: flex;
  flex-direction: column;
  gap: 2px;

  & & {
    padding: 2px 0 4px 14px;
  }
`

const Item = styled(Link)`
  position: relative;
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 9px 12px;
  border-radius: 8px;
  color: var(--color-text);
  text-decoration: none;
  font-weight: 500;

  &:hover {
    background: var(--color-primary-soft);
  }
  &[aria-current='page'] {
    background: var(--color-primary-soft);
    color: var(--color-primary);
    font-weight: 650;
  }
`

const SoonBadge = styled.span`
  margin-left: auto;
  padding: 1px 7px;
  border: 1px solid var(--color-border);
  border-radius: 999px;
  color: var(--color-text-muted);
  font-size: 11px;
  font-weight: 600;
  line-height: 16px;
  white-space: nowrap;
`

/** Marks a page that is not built yet; screen readers hear it as part of the link's name. */
function Soon() {
  return (
    <>
      <SoonBadge aria-hidden="true">Soon</SoonBadge>
      <VisuallyHidden> (coming soon)</VisuallyHidden>
    </>
  )
}

function Items({ items }: { items: NavItem[] }) {
  return (
    <List>
      {items.map((item) => (
        <li key={item.to}>
          <Item to={item.to} activeOptions={{ exact: true }}>
            {item.label}
            {item.planned && <Soon />}
          </Item>
          {item.children && item.children.length > 0 && <Items items={item.children} />}
        </li>
      ))}
    </List>
  )
}

export function MainNav({ session, workspace }: { session: Session | null; workspace: Workspace | null | undefined }) {
  return (
    <nav aria-label="Main">
      <Items items={navItems(session, workspace)} />
    </nav>
  )
}
