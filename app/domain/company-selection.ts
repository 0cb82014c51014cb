/**
 * The company selection: undefined until the list is known, null when it is empty, the only
 * one when there is one, else the user's default if it is in the list, else the first.
 */
export function selectCompany(slugs: readonly string[] | undefined, defaultCompany: string | null | undefined): string | null | undefined {
  if (slugs === undefined) return undefined
  if (slugs.length === 0) return null
  if (slugs.length === 1) return slugs[0]
  return defaultCompany && slugs.includes(defaultCompany) ? defaultCompany : slugs[0]
}
