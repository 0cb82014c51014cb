import { Suspense } from 'react'
import styled from 'styled-components'
import { release } from '#domain/brand.ts'
import { Popover } from '~/ui/popover'
import { useHydrated } from '~/ui/use-hydrated'
import { lazyPart } from '~/ui/lazy-part'

const Trigger = styled.button`
  padding: 4px 8px;
  border: none;
  border-radius: 6px;
  background: none;
  color: inherit;
  font: inherit;
  cursor: pointer;

  &:hover {
    background: var(--color-primary-soft);
    color: var(--color-text);
  }
`

// What the popover says comes with it, when first wanted.
const loadFacts = () => import('./release-facts')
const ReleaseFacts = lazyPart(() => loadFacts().then((m) => ({ default: m.ReleaseFacts })))

/** The footer's release label; opens the version and when it was last updated. */
export function VersionPopover() {
  const hydrated = useHydrated()
  return (
    <Popover
      label="About this version"
      trigger={
        <Trigger type="button" disabled={!hydrated} onPointerEnter={() => void loadFacts()} onFocus={() => void loadFacts()}>
          Version {release.version}
        </Trigger>
      }
    >
      <Suspense fallback={null}>
        <ReleaseFacts />
      </Suspense>
    </Popover>
  )
}
