// "Show 50 more" under a list of people read a page at a time (usePeople): the next page, or the
// rest when fewer are left; "Show more" when Auth knows fewer than the count says.
import styled from 'styled-components'
import { PEOPLE_PAGE } from '#domain/admin-people-calls.ts'
import { Button } from '~/ui/button'
import type { usePeople } from './use-people'

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
