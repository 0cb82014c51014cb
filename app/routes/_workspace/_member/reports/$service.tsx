import { createFileRoute } from '@tanstack/react-router'
import { serviceById } from '#domain/services.ts'
import { describedServicePage } from '~/features/site/described-page'

export const Route = createFileRoute('/_workspace/_member/reports/$service')(
  describedServicePage((id) => serviceById(id) && `/reports/${id}`),
)
