import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import type { Session } from '~/features/session/session'
import { navItems } from './nav-items'

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 12px;
  display: flex;
  flex-direction: column;
  gap: 2px;
`

const Item = styled(Link)`
  display: block;
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

export function MainNav({ session }: { session: Session | null }) {
  return (
    <nav aria-label="Main">
      <List>
        {navItems(session).map((item) => (
          <li key={item.to}>
            <Item to={item.to} activeOptions={{ exact: item.to === '/' }}>
              {item.label}
            </Item>
          </li>
        ))}
      </List>
    </nav>
  )
}
