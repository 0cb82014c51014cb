import type { Page } from '@playwright/test'

/**
 * What the page asks the database to follow, as it asks: the collections of its queries and the
 * documents it watches (read from the Firestore Listen channel's requests).
 */
export function followedTargets(page: Page): { collections: string[]; documents: string[] } {
  const followed = { collections: [] as string[], documents: [] as string[] }
  page.on('request', (request) => {
    if (!request.url().includes('/google.firestore.v1.Firestore/Listen/channel')) return
    for (const value of new URLSearchParams(request.postData() ?? '').values()) {
      for (const match of value.matchAll(/"collectionId":"([^"]+)"/g)) followed.collections.push(match[1]!)
      for (const match of value.matchAll(/"documents":\[([^\]]*)\]/g)) {
        for (const name of match[1]!.matchAll(/"([^"]+)"/g)) followed.documents.push(name[1]!)
      }
    }
  })
  return followed
}
