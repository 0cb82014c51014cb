import { createFileRoute } from '@tanstack/react-router'
import { serviceByAnalystSlug } from '#domain/services.ts'
import { describedServicePage } from '~/features/site/described-page'

export const Route = createFileRoute('/_workspace/_member/analyst/services/$service')(
  describedServicePage((slug) => serviceByAnalystSlug(slug) && `/analyst/services/${slug}`),
)
