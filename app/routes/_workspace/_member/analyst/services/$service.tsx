import { createFileRoute } from '@tanstack/react-router'
import { serviceByAnalystSlug } from '#domain/services.ts'
import { servicePage } from '~/features/site/page-head'
import { PlannedServicePage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/analyst/services/$service')({
  ...servicePage((slug) => serviceByAnalystSlug(slug) && `/analyst/services/${slug}`),
  component: PlannedServicePage,
})
