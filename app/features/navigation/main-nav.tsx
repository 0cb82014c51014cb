import { useEffect, useState } from 'react'
import { Link } from '@tanstack/react-router'
import { IconChevronDown } from '@tabler/icons-react'
import styled from 'styled-components'
import type { Session } from '~/core/session'
import type { Workspace } from '~/core/workspace'
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

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: 2px;

  > a {
    flex: 1;
    min-width: 0;
  }
`

const Toggle = styled.button`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 36px;
  height: 36px;
  border: none;
  border-radius: 8px;
  background: none;
  color: var(--color-text-muted);
  cursor: pointer;

  &:hover {
    background: var(--color-primary-soft);
    color: var(--color-text);
  }
  svg {
    transition: transform 150ms;
  }
  &[aria-expanded='false'] svg {
    transform: rotate(-90deg);
  }
`

/** The areas a person folded, kept in this browser: everything starts unfolded, so nothing is hidden from a newcomer. */
const FOLDED_KEY = 'navFolded'

function readFolded(): string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(FOLDED_KEY) ?? '[]')
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

function useFolded(): [folded: ReadonlySet<string>, toggle: (path: string) => void] {
  // The server knows nothing of this browser: unfolded first, the kept choice once hydrated.
  const [folded, setFolded] = useState<ReadonlySet<string>>(() => new Set())
  useEffect(() => setFolded(new Set(readFolded())), [])
  const toggle = (path: string) =>
    setFolded((current) => {
      const next = new Set(current)
      if (!next.delete(path)) next.add(path)
      window.localStorage.setItem(FOLDED_KEY, JSON.stringify([...next]))
      return next
    })
  return [folded, toggle]
}

function Items({ items, folded, onToggle }: { items: NavItem[]; folded: ReadonlySet<string>; onToggle?: (path: string) => void }) {
  return (
    <List>
      {items.map((item) => {
        const children = item.children ?? []
        const open = !folded.has(item.to)
        const listId = `nav-sub${item.to.replace(/\//g, '-')}`
        return (
          <li key={item.to}>
            <Row>
              {/* A page stays marked with its filters (or a page to return to) in the address. */}
              <Item to={item.to} activeOptions={{ exact: true, includeSearch: false }}>
                {item.label}
              </Item>
              {children.length > 0 && onToggle && (
                <Toggle
                  type="button"
                  aria-expanded={open}
                  aria-controls={listId}
                  aria-label={`${open ? 'Hide' : 'Show'} the pages of ${item.label}`}
                  onClick={() => onToggle(item.to)}
                >
                  <IconChevronDown size={16} aria-hidden="true" />
                </Toggle>
              )}
            </Row>
            {children.length > 0 && (
              <div id={listId} hidden={!open}>
                <Items items={children} folded={folded} />
              </div>
            )}
          </li>
        )
      })}
    </List>
  )
}

export function MainNav({ session, workspace }: { session: Session | null; workspace: Workspace | null | undefined }) {
  const [folded, toggle] = useFolded()
  return (
    <nav aria-label="Main">
      <Items items={navItems(session, workspace)} folded={folded} onToggle={toggle} />
    </nav>
  )
}
