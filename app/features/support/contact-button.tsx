import { Suspense, useState } from 'react'
import styled from 'styled-components'
import { useHydrated } from '~/ui/use-hydrated'
import { lazyPart } from '~/ui/lazy-part'
import { Button } from '~/ui/button'
import type { SupportDraft } from './support-dialog'

// Loaded when first wanted (hovering or pressing Contact), so every page's first load stays small.
const loadDialog = () => import('./support-dialog')
const SupportDialog = lazyPart(() => loadDialog().then((module) => ({ default: module.SupportDialog })))

// Takes the button's variant too, so either can be the opener.
const LinkLike = styled.button<{ $variant?: 'secondary' }>`
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

/**
 * The footer's way to reach the team: opens the support dialog (which keeps its draft once opened).
 * Elsewhere a page names what to ask (`label`) and the message the dialog starts with.
 */
export function ContactButton({
  signedIn = true,
  label = 'Contact',
  startWith,
  asButton = false,
}: {
  signedIn?: boolean
  label?: string
  startWith?: SupportDraft
  /** Drawn as a button of the page rather than as a link of the footer. */
  asButton?: boolean
}) {
  const [open, setOpen] = useState(false)
  const [wanted, setWanted] = useState(false)
  const hydrated = useHydrated()
  const Opener = asButton ? Button : LinkLike
  return (
    <>
      <Opener
        type="button"
        $variant="secondary"
        disabled={!hydrated}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        onClick={() => {
          setWanted(true)
          setOpen(true)
        }}
      >
        {label}
      </Opener>
      {wanted && (
        <Suspense fallback={null}>
          <SupportDialog open={open} onOpenChange={setOpen} signedIn={signedIn} startWith={startWith} />
        </Suspense>
      )}
    </>
  )
}
