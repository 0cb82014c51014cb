import { createFileRoute } from '@tanstack/react-router'
import { serviceByAnalystSlug } from '#domain/services.ts'
import { plannedServicePage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/analyst/services/$service')(
  plannedServicePage((slug) => serviceByAnalystSlug(slug) && `/analyst/services/${slug}`),
)
