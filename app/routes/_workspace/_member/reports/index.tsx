import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { overviewFirstPaint } from '~/features/reports/data/reports.functions'
import { ReportsOverview } from '~/features/reports/overview/reports-overview'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/reports')

export const Route = createFileRoute('/_workspace/_member/reports/')({
  loader: ({ context }) => overviewFirstPaint(context),
  head: pageHead('/reports'),
  component: Reports,
})

function Reports() {
  const firstPaint = Route.useLoaderData()
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      <ReportsOverview key={workspace?.company?.slug ?? ''} workspace={workspace} firstPaint={firstPaint} />
    </>
  )
}
