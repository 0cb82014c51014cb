// The parts of a list of people read a page at a time (usePeople) that every such list shows: the
// search by the start of an address, and "Show 50 more" under it (the next page, or the rest when
// fewer are left; "Show more" when Auth knows fewer than the count says).
import styled from 'styled-components'
import { PEOPLE_PAGE } from '#domain/admin-people-calls.ts'
import { Button } from '~/ui/button'
import type { usePeople } from './use-people'

/** The search box of a people list: the server matches the start of an address. */
export const PeopleSearch = styled.input.attrs({
  type: 'search',
  placeholder: 'Search by the start of an address',
  'aria-label': 'Search people',
})`
  min-height: 38px;
  padding: 0 12px;
  border-radius: 8px;
  border: 1px solid var(--color-border);
  background: var(--color-surface);
  color: var(--color-text);
  font: inherit;
`

const More = styled.div`
  display: flex;
  justify-content: center;
`

export function ShowMorePeople({ people }: { people: ReturnType<typeof usePeople> }) {
  if (!people.next) return null
  // People Auth no longer knows are left out of a page: then fewer remain than the count says.
  const left = people.total - people.rows.length
  return (
    <More>
      <Button type="button" $variant="secondary" disabled={people.busy} onClick={() => void people.more()}>
        {people.busy ? 'Loading more…' : left > 0 ? `Show ${Math.min(PEOPLE_PAGE.size, left)} more` : 'Show more'}
      </Button>
    </More>
  )
}
