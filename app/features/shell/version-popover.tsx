import styled from 'styled-components'
import { definitionGrid } from '~/ui/layout'
import { brand, release } from '#domain/brand.ts'
import { Popover } from '~/ui/popover'
import { useHydrated } from '~/ui/use-hydrated'

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

const Facts = styled.dl`
  ${definitionGrid('6px 16px')}

  dt {
    color: var(--color-text-muted);
  }
  dd {
    font-weight: 600;
  }
`

/** Stamped by the build (vite.config.ts): when this release was built, as an ISO time. */
const updatedAt: string | undefined = import.meta.env.VITE_RELEASE_UPDATED_AT

/** "When" in the reader's own time zone (the popover's content renders only in the browser, on open). */
const formatUpdatedAt = (iso: string) =>
  new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(iso))

function ReleaseFacts() {
  return (
    <Facts>
      <dt>Product</dt>
      <dd>{brand.name}</dd>
      <dt>Version</dt>
      <dd data-testid="release-version">{release.version}</dd>
      <dt>Last updated</dt>
      <dd data-testid="release-updated">{updatedAt ? <time dateTime={updatedAt}>{formatUpdatedAt(updatedAt)}</time> : 'Unknown'}</dd>
    </Facts>
  )
}

/** The footer's release label; opens the version and when it was last updated. */
export function VersionPopover() {
  const hydrated = useHydrated()
  return (
    <Popover
      label="About this version"
      trigger={
        <Trigger type="button" disabled={!hydrated}>
          Version {release.version}
        </Trigger>
      }
    >
      <ReleaseFacts />
    </Popover>
  )
}
