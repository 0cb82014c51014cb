import { useState } from 'react'
import styled from 'styled-components'
import { SupportDialog } from './support-dialog'
import { useHydrated } from '~/ui/use-hydrated'

const Link = styled.button`
  padding: 0;
  border: none;
  background: none;
  color: var(--color-primary);
  font: inherit;
  cursor: pointer;

  &:hover {
    text-decoration: underline;
  }
`

/** The footer's way to reach the team: opens the support dialog. */
export function ContactButton() {
  const [open, setOpen] = useState(false)
  const hydrated = useHydrated()
  return (
    <>
      <Link type="button" disabled={!hydrated} onClick={() => setOpen(true)}>
        Contact
      </Link>
      <SupportDialog open={open} onOpenChange={setOpen} />
    </>
  )
}
