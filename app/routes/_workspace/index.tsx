import { Suspense } from 'react'
import { createFileRoute, redirect } from '@tanstack/react-router'
import styled from 'styled-components'
import * as v from 'valibot'
import { brand } from '#domain/brand.ts'
import { safeReturnPath } from '#domain/sign-in.ts'
import { SignInPanel } from '~/features/auth/sign-in-panel'
import { navItems } from '~/features/navigation/nav-items'
import { pageHead } from '~/features/site/page-head'
import { media } from '~/ui/theme'
import { surface } from '~/ui/surface'
import { lazyPart } from '~/ui/lazy-part'

// A member's dashboard: a visitor's first load does without it.
const Dashboard = lazyPart(() => import('~/features/dashboard/dashboard').then((m) => ({ default: m.Dashboard })))
const HubLinks = lazyPart(() => import('~/features/navigation/hub-links').then((m) => ({ default: m.HubLinks })))
const AskForAccess = lazyPart(() => import('~/features/support/ask-for-access').then((m) => ({ default: m.AskForAccess })))

export const Route = createFileRoute('/_workspace/')({
  head: pageHead('/'),
  // The page a visitor asked for before signing in (checked again where it is used).
  validateSearch: v.object({ next: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(2048))), undefined) }),
  // Already signed in: straight to the page asked for.
  beforeLoad: ({ context, search }) => {
    const back = context.session ? safeReturnPath(search.next) : null
    if (back) throw redirect({ href: back })
  },
  component: Home,
})

const Layout = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr) auto;
  gap: 40px;
  align-items: start;

  ${media.mobile} {
    grid-template-columns: 1fr;
    gap: 24px;

    /* On a phone the form comes first: people come here to sign in. */
    & > section:last-child {
      order: -1;
      max-width: none;
    }
  }
`

const Hero = styled.section`
  max-width: 720px;

  h1 {
    font-size: 32px;
    font-weight: 700;
  }
  p {
    color: var(--color-text-muted);
    font-size: 17px;
  }
`

const Features = styled.ul`
  list-style: none;
  padding: 0;
  margin: 32px 0 0;
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(200px, 1fr));
  gap: 16px;

  li {
    padding: 20px;
    ${surface}
  }
  h2 {
    font-size: 16px;
  }
  p {
    margin: 0;
    font-size: 14px;
  }
`

const features = [
  { title: 'Reports', text: 'Attack surface, password audits, DAST, network and cloud results for your company.' },
  { title: 'Findings library', text: 'Consistent, reviewed finding templates behind every report.' },
  { title: 'Secure exchange', text: 'Share secrets with your testers through one-time vault links.' },
]

function Home() {
  const { session, workspace } = Route.useRouteContext()
  const { next } = Route.useSearch()
  if (session) {
    // Only what this person may open, each a link.
    const areas = navItems(session, workspace).filter((item) => item.to !== '/')
    return (
      <Suspense fallback={null}>
        <Dashboard
          session={session}
          workspace={workspace}
          areas={<HubLinks label="Your areas" items={areas} />}
          askForAccess={
            <Suspense fallback={null}>
              <AskForAccess email={session.email} companyName={workspace?.company?.companyName} />
            </Suspense>
          }
        />
      </Suspense>
    )
  }
  return (
    <Layout>
      <Hero>
        <h1>{brand.tagline}</h1>
        <p>
          Read the results of the security tests your company bought, follow their findings to closure and talk to the analysts who ran
          them.
        </p>
        <Features>
          {features.map((f) => (
            <li key={f.title}>
              <h2>{f.title}</h2>
              <p>{f.text}</p>
            </li>
          ))}
        </Features>
      </Hero>
      <SignInPanel returnTo={next} />
    </Layout>
  )
}
