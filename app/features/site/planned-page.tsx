import { useId } from 'react'
import { Link } from '@tanstack/react-router'
import styled from 'styled-components'
import { sitePage, type SitePage } from '#domain/site-map.ts'
import { BareShell } from '~/ui/bare-shell'
import { surface } from '~/ui/surface'
import { SitePageHeader } from './page-head'

const Frame = styled.div`
  width: 100%;
  max-width: 640px;
`

const Card = styled.section`
  ${surface}
  display: flex;
  align-items: flex-start;
  gap: 16px;
  padding: 24px;

  h2 {
    font-size: 17px;
    font-weight: 650;
    margin: 0 0 4px;
  }
  p {
    color: var(--color-text-muted);
    margin: 0 0 16px;
  }
`

const Mark = styled.span`
  flex: none;
  display: grid;
  place-items: center;
  width: 40px;
  height: 40px;
  border-radius: 50%;
  background: var(--color-primary-soft);
  color: var(--color-primary);
`

const HomeLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  min-height: 38px;
  padding: 0 16px;
  border: 1px solid var(--color-border);
  border-radius: 8px;
  background: var(--color-surface);
  color: var(--color-text);
  font-weight: 600;
  text-decoration: none;

  &:hover {
    border-color: var(--color-primary);
  }
`

function Hourglass() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M6 2h12M6 22h12M7 2v4a5 5 0 0 0 10 0V2M7 22v-4a5 5 0 0 1 10 0v4" />
    </svg>
  )
}

/** What a planned page shows: its heading and summary, and that it is not available yet. */
function Placeholder({ page }: { page: SitePage }) {
  const headingId = useId()
  const content = (
    <Frame>
      <SitePageHeader page={page} />
      <Card aria-labelledby={headingId}>
        <Mark>
          <Hourglass />
        </Mark>
        <div>
          <h2 id={headingId}>Coming soon</h2>
          <p>This part of the workspace is being built and is not available yet.</p>
          <HomeLink to="/">Back to home</HomeLink>
        </div>
      </Card>
    </Frame>
  )
  return page.shell === 'bare' ? <BareShell>{content}</BareShell> : content
}

/** The placeholder of the planned page at `path` in the site map. */
export function PlannedPage({ path }: { path: string }) {
  return <Placeholder page={sitePage(path)} />
}
