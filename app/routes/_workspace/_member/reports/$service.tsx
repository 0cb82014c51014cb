import { createFileRoute } from '@tanstack/react-router'
import { serviceById } from '#domain/services.ts'
import { servicePage } from '~/features/site/page-head'
import { PlannedServicePage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/reports/$service')({
  ...servicePage((id) => serviceById(id) && `/reports/${id}`),
  component: PlannedServicePage,
})
