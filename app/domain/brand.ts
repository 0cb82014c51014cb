/** Product identity shown in titles, the header and emails. */
export const brand = {
  name: 'Bulwark',
  tagline: 'Security testing workspace',
} as const

/** The release shown in the footer. */
export const release = {
  version: '2025.10.01.1420',
} as const

/** The document title of a page: the page's own name first, the brand last. */
export const pageTitle = (page?: string) => (page ? `${page} · ${brand.name}` : `${brand.name} · ${brand.tagline}`)
