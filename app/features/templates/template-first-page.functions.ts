import { createIsomorphicFn } from '@tanstack/react-start'
import { mayRequestSearchCredentials } from '#domain/access.ts'
import type { RouterContext } from '~/core/session'
import { readSession } from '~/server/session.server'
import { templatesFirstPageAtEdge, type KeptSearchKey } from './template-search-edge.server'
import type { TemplateListSearch } from './template-query'
import type { FirstPage } from './use-template-search'

/**
 * The list's first results for the server's render, so they show before (and without) the app's
 * code; in the browser nothing (the list searches itself). A failure is quiet: the browser searches.
 */
export const templatesFirstPage = createIsomorphicFn()
  .server(
    async (
      search: TemplateListSearch,
      context: Pick<RouterContext, 'workspace'>,
    ): Promise<(FirstPage & { key: KeptSearchKey }) | undefined> => {
      if (search.template || !mayRequestSearchCredentials(context.workspace?.access)) return undefined
      const current = await readSession()
      if (!current) return undefined
      try {
        return { search, ...(await templatesFirstPageAtEdge(current.session.uid, current.idToken, search)) }
      } catch (error) {
        console.warn('The templates could not be searched at the edge', error)
        return undefined
      }
    },
  )
  .client(
    (_search: TemplateListSearch, _context: Pick<RouterContext, 'workspace'>): (FirstPage & { key: KeptSearchKey }) | undefined =>
      undefined,
  )
