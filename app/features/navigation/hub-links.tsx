import type { ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { IconChevronRight } from '@tabler/icons-react'
import styled from 'styled-components'
import { surface } from '~/ui/surface'
import type { NavItem } from './nav-items'

const Grid = styled.ul`
  list-style: none;
  margin: 0 0 24px;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: 12px;
`

const Card = styled(Link)`
  ${surface}
  display: flex;
  align-items: center;
  gap: 12px;
  height: 100%;
  padding: 14px 16px;
  color: var(--color-text);
  text-decoration: none;

  > span {
    flex: 1;
    min-width: 0;
  }
  strong {
    display: block;
    font-size: 15px;
    margin-bottom: 2px;
  }
  small {
    display: block;
    color: var(--color-text-muted);
    font-size: 13px;
    line-height: 1.4;
  }
  &:hover {
    border-color: var(--color-primary);
  }
  &:hover strong {
    text-decoration: underline;
  }
`

const Count = styled.span`
  display: block;
  margin-top: 6px;
  color: var(--color-primary);
  font-size: 13px;
  font-weight: 650;
  font-variant-numeric: tabular-nums;
`

/**
 * An area's hub: each page of the area the person may open, with its one line and, where the area
 * has one, a live count.
 */
export function HubLinks({ items, counts = {}, label }: { items: NavItem[]; counts?: Record<string, ReactNode>; label: string }) {
  if (items.length === 0) return null
  return (
    <nav aria-label={label}>
      <Grid data-testid="hub-links">
        {items.map((item) => (
          <li key={item.to}>
            <Card to={item.to}>
              <span>
                <strong>{item.label}</strong>
                {item.summary && <small>{item.summary}</small>}
                {counts[item.to] !== undefined && counts[item.to] !== null && <Count>{counts[item.to]}</Count>}
              </span>
              <IconChevronRight size={18} aria-hidden="true" />
            </Card>
          </li>
        ))}
      </Grid>
    </nav>
  )
}
