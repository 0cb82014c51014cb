import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { LocationsPanel } from '~/features/fleet/locations-panel'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/analyst/locations')

export const Route = createFileRoute('/_workspace/_member/analyst/locations')({
  head: pageHead('/analyst/locations'),
  component: LocationsPage,
})

function LocationsPage() {
  const { workspace } = Route.useRouteContext()
  return (
    <>
      <SitePageHeader page={page} />
      <LocationsPanel companies={workspace?.companies ?? []} />
    </>
  )
}
