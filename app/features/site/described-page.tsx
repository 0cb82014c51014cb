import { notFound, useLoaderData } from '@tanstack/react-router'
import { pageTitle } from '#domain/brand.ts'
import { sitePage, type SitePage } from '#domain/site-map.ts'
import { PageHeader } from '~/ui/page-header'

function DescribedPageHeader({ page }: { page: SitePage }) {
  return <PageHeader title={page.title} summary={page.summary} />
}

/** Route options for a page whose heading, summary and title come from the site map. */
export function describedPage(path: string) {
  const page = sitePage(path)
  return {
    head: () => ({ meta: [{ title: pageTitle(page.title) }] }),
    component: () => <DescribedPageHeader page={page} />,
  }
}

/**
 * Route options for a page chosen by its `$service` path parameter: `pathFor` maps the
 * parameter to a site-map path, and an unknown service is a 404.
 */
export function describedServicePage(pathFor: (service: string) => string | undefined) {
  return {
    loader: ({ params }: { params: { service: string } }): SitePage => {
      const path = pathFor(params.service)
      if (!path) throw notFound()
      return sitePage(path)
    },
    head: ({ loaderData }: { loaderData?: SitePage }) => ({ meta: [{ title: pageTitle(loaderData?.title) }] }),
    component: function ServicePage() {
      const page = useLoaderData({ strict: false }) as SitePage
      return <DescribedPageHeader page={page} />
    },
  }
}
