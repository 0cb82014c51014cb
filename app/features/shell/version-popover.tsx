import styled from 'styled-components'
import { definitionGrid } from '~/ui/layout'
import { brand, release } from '#domain/brand.ts'
import { LocalTime } from '~/ui/local-time'
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

/** Stamped by `vite build` only (vite.config.ts): when this release was built, as an ISO time. */
const updatedAt: string | undefined = import.meta.env.VITE_RELEASE_UPDATED_AT

const Note = styled.p`
  margin: 10px 0 0;
  max-width: 280px;
  color: var(--color-text-muted);
  font-size: 12px;
`

function ReleaseFacts() {
  return (
    <>
      <Facts>
        <dt>Product</dt>
        <dd>{brand.name}</dd>
        <dt>Release</dt>
        <dd data-testid="release-version">{release.version}</dd>
        <dt>Last updated</dt>
        <dd data-testid="release-updated">
          {updatedAt ? <LocalTime at={updatedAt} format="date-time-zone" /> : 'Not stamped (development server)'}
        </dd>
      </Facts>
      <Note>The release names the version of the product; last updated is when this copy of it was built, in your time zone.</Note>
    </>
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
