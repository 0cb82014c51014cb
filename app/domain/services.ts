import * as v from 'valibot'

/**
 * The services a company can buy. The id is the name used in data (users_access.servicesEnabled,
 * findings, scans) and in report URLs; analyst pages use a hyphenated slug.
 */
export const services = [
  { id: 'projectmariana', label: 'Attack surface', analystSlug: 'projectmariana' },
  { id: 'password_cracking', label: 'Password cracking', analystSlug: 'password-cracking' },
  { id: 'dast', label: 'DAST', analystSlug: 'dast' },
  { id: 'network', label: 'Network', analystSlug: 'network' },
  { id: 'cloud', label: 'Cloud', analystSlug: 'cloud' },
] as const

export type Service = (typeof services)[number]
export type ServiceId = Service['id']

export const serviceById = (id: string): Service | undefined => services.find((s) => s.id === id)
export const serviceByAnalystSlug = (slug: string): Service | undefined => services.find((s) => s.analystSlug === slug)

/** A service id as stored documents hold it. */
export const ServiceIdSchema = v.picklist(services.map((s) => s.id) as [ServiceId, ...ServiceId[]])
