import { createFileRoute } from '@tanstack/react-router'
import { sitePage } from '#domain/site-map.ts'
import { ServiceCataloguePage } from '~/features/admin/services/service-catalogue-page'
import { pageHead, SitePageHeader } from '~/features/site/page-head'

const page = sitePage('/admin/app/services')

export const Route = createFileRoute('/_workspace/_member/admin/app/services')({
  head: pageHead('/admin/app/services'),
  component: () => (
    <>
      <SitePageHeader page={page} />
      <ServiceCataloguePage />
    </>
  ),
})
