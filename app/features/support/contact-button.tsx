import { Suspense, useState } from 'react'
import styled from 'styled-components'
import { useHydrated } from '~/ui/use-hydrated'
import { lazyPart } from '~/ui/lazy-part'

// Loaded when first wanted (hovering or pressing Contact), so every page's first load stays small.
const loadDialog = () => import('./support-dialog')
const SupportDialog = lazyPart(() => loadDialog().then((module) => ({ default: module.SupportDialog })))

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

/** The footer's way to reach the team: opens the support dialog (which keeps its draft once opened). */
export function ContactButton({ signedIn = true }: { signedIn?: boolean }) {
  const [open, setOpen] = useState(false)
  const [wanted, setWanted] = useState(false)
  const hydrated = useHydrated()
  return (
    <>
      <Link
        type="button"
        disabled={!hydrated}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => {
          setWanted(true)
          setOpen(true)
        }}
      >
        Contact
      </Link>
      {wanted && (
        <Suspense fallback={null}>
          <SupportDialog open={open} onOpenChange={setOpen} signedIn={signedIn} />
        </Suspense>
      )}
    </>
  )
}
