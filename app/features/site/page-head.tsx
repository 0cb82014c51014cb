import type { ReactNode } from 'react'
import { notFound } from '@tanstack/react-router'
import { pageTitle } from '#domain/brand.ts'
import { sitePage, type SitePage } from '#domain/site-map.ts'
import { PageHeader } from '~/ui/page-header'

/** A further `<meta>` tag of a page's head, beside its title. */
export interface MetaTag {
  name: string
  content: string
}

/** The document title of a page: Home carries the brand's own, every other page its name first. */
export const documentTitle = (page: SitePage | undefined) => pageTitle(page && page.path !== '/' ? page.title : undefined)

/** A route's `head` value for a site-map page (undefined while its loader has not answered). */
export const pageMeta = (page: SitePage | undefined, ...meta: MetaTag[]) => ({ meta: [{ title: documentTitle(page) }, ...meta] })

/** Route option `head` of the page at `path` in the site map: its document title, then `meta`. */
export function pageHead(path: string, ...meta: MetaTag[]) {
  const page = sitePage(path)
  return () => pageMeta(page, ...meta)
}

/**
 * Route options `loader` and `head` of a page chosen by its `$service` path parameter: `pathFor`
 * maps the parameter to a site-map path, and an unknown service is a 404.
 */
export function servicePage(pathFor: (service: string) => string | undefined) {
  return {
    loader: ({ params }: { params: { service: string } }): SitePage => {
      const path = pathFor(params.service)
      if (!path) throw notFound()
      return sitePage(path)
    },
    head: ({ loaderData }: { loaderData?: SitePage }) => pageMeta(loaderData),
  }
}

/** A page's heading and summary, as the site map names them. */
export function SitePageHeader({ page, actions }: { page: SitePage; actions?: ReactNode }) {
  return <PageHeader title={page.title} summary={page.summary} actions={actions} />
}
