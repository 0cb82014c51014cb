import { createFileRoute } from '@tanstack/react-router'
import { plannedPage } from '~/features/site/planned-page'

export const Route = createFileRoute('/_workspace/_member/analyst/agents')(plannedPage('/analyst/agents'))
