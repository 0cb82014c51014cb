import { createFileRoute } from '@tanstack/react-router'
import { describedPage } from '~/features/site/described-page'

export const Route = createFileRoute('/_workspace/_member/profile')(describedPage('/profile'))
