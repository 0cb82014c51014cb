import { createFileRoute } from '@tanstack/react-router'
import { serviceById } from '#domain/services.ts'
import { plannedServicePage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/reports/$service')(
  plannedServicePage((id) => serviceById(id) && `/reports/${id}`),
)
