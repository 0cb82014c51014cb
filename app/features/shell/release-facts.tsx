import styled from 'styled-components'
import { brand, release } from '#domain/brand.ts'
import { definitionGrid } from '~/ui/layout'
import { LocalTime } from '~/ui/local-time'

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

/** The version and when this copy was built, in the reader's time zone. */
export function ReleaseFacts() {
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
