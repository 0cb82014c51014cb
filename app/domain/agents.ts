// Scanning fleet (decision 0021): locations/{id} where scans come from, agents/{id} that run them,
// agent_enrolments/{sha256(token)} the one-time tokens that let an agent join. Only the functions
// write these; senior analysts read locations and agents live. An agent's health is derived from
// the age of its last heartbeat at read time, so a page shows it going offline without any write.
import * as v from 'valibot'
import { SealingKeySchema } from './agent-sealing.ts'
import { CompanySlugSchema } from './company-admin.ts'
import { TimestampSchema } from './stored.ts'

export const LOCATIONS_COLLECTION = 'locations'
export const AGENTS_COLLECTION = 'agents'
export const AGENT_ENROLMENTS_COLLECTION = 'agent_enrolments'
/** One document per request token id an agent used, kept until the token expires: replays fail to create it. */
export const AGENT_NONCES_COLLECTION = 'agent_nonces'

export const locationPath = (id: string) => `${LOCATIONS_COLLECTION}/${id}`
export const agentPath = (id: string) => `${AGENTS_COLLECTION}/${id}`
export const agentEnrolmentPath = (tokenHash: string) => `${AGENT_ENROLMENTS_COLLECTION}/${tokenHash}`
export const agentNoncePath = (agentId: string, jti: string) => `${AGENT_NONCES_COLLECTION}/${agentId}_${jti}`

/** How often an agent beats, and the spread around it so a fleet restarted at once does not beat in step. */
export const HEARTBEAT_INTERVAL_MS = 15_000
export const HEARTBEAT_JITTER = 0.2
/**
 * Health thresholds, from the age of the last heartbeat: online up to 35 s (two missed beats
 * allowed with jitter), degraded up to 60 s, offline after, so a stopped agent is offline on the
 * page within a minute. A reported problem (a scanner missing, the last job's error) also degrades.
 */
export const ONLINE_WITHIN_MS = 35_000
export const OFFLINE_AFTER_MS = 60_000
/** Enrolment tokens are valid for 24 hours and once. */
export const ENROLMENT_TTL_MS = 24 * 60 * 60 * 1000

export const SCANNER_NAMES = ['nmap', 'wapiti', 'testssl', 'john'] as const
export type ScannerName = (typeof SCANNER_NAMES)[number]

const Text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max))
const Name = v.pipe(v.string(), v.trim(), v.minLength(1, 'Give it a name.'), v.maxLength(100, 'At most 100 characters.'))

export const ScannerSchema = v.object({ name: v.picklist(SCANNER_NAMES), version: Text(100) })
export type Scanner = v.InferOutput<typeof ScannerSchema>

export const PublicKeySchema = v.object({
  kty: v.literal('OKP'),
  crv: v.literal('Ed25519'),
  x: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a 32-byte Ed25519 public key')),
})
export type AgentPublicKey = v.InferOutput<typeof PublicKeySchema>

/** An egress address or range as clients allow-list it: IPv4 or IPv6, with an optional prefix length. */
const EgressSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)(?:\/\d{1,3})?$/,
    'Give an IP address or range, e.g. 203.0.113.7/32.',
  ),
)

export const LocationFieldsSchema = v.object({
  name: Name,
  country: v.pipe(v.string(), v.trim(), v.regex(/^[A-Z]{2}$/, 'Give the two-letter country code, e.g. GB.')),
  region: Text(100),
  network: Text(500),
  egressIps: v.pipe(v.array(EgressSchema), v.maxLength(50)),
  /**
   * The companies whose scans may run from here (decision 0034): a location inside one client's
   * network serves that client alone, and a DAST key reaches only its own company's locations.
   * None (as for a location stored before the binding) serves no one.
   */
  companies: v.optional(
    v.pipe(
      v.array(CompanySlugSchema),
      v.maxLength(500, 'At most 500 companies.'),
      v.check((slugs) => new Set(slugs).size === slugs.length, 'Each company appears once.'),
    ),
    [],
  ),
})
export type LocationFields = v.InferOutput<typeof LocationFieldsSchema>

/** Whether scans of `company` may run from this location. */
export const locationServes = (location: Pick<LocationFields, 'companies'>, company: string) => location.companies.includes(company)

const LocationSchema = v.object({
  ...LocationFieldsSchema.entries,
  id: v.string(),
  updatedAt: v.optional(v.nullable(TimestampSchema), null),
  updatedBy: v.optional(v.nullable(v.string()), null),
})
export type Location = v.InferOutput<typeof LocationSchema>

export function locationFromDocument(id: string, data: unknown): Location | null {
  if (typeof data !== 'object' || data === null) return null
  const parsed = v.safeParse(LocationSchema, { ...data, id })
  return parsed.success ? parsed.output : null
}

/** What an administrator decided about an agent; its health comes from heartbeats. */
export const AGENT_STATES = ['active', 'disabled'] as const
export type AgentState = (typeof AGENT_STATES)[number]

const AgentSchema = v.object({
  id: v.string(),
  name: v.string(),
  locationId: v.string(),
  state: v.picklist(AGENT_STATES),
  /** The agent's public key; the private key never leaves its host. Null after a rotation until it enrols again. */
  publicKey: v.nullable(PublicKeySchema),
  /** The X25519 key password audits are sealed to (decision 0021); null for an agent enrolled before it had one. */
  sealingKey: v.optional(v.nullable(SealingKeySchema), null),
  version: v.optional(v.string(), ''),
  hostname: v.optional(v.string(), ''),
  scanners: v.optional(v.array(ScannerSchema), []),
  problems: v.optional(v.array(v.string()), []),
  lastError: v.optional(v.nullable(v.string()), null),
  currentJobId: v.optional(v.nullable(v.string()), null),
  lastHeartbeatAt: v.optional(v.nullable(TimestampSchema), null),
  enrolledAt: TimestampSchema,
  enrolledBy: v.string(),
})
export type Agent = v.InferOutput<typeof AgentSchema>

export function agentFromDocument(id: string, data: unknown): Agent | null {
  if (typeof data !== 'object' || data === null) return null
  const parsed = v.safeParse(AgentSchema, { ...data, id })
  return parsed.success ? parsed.output : null
}

export type AgentHealth = 'online' | 'degraded' | 'offline' | 'disabled'

/** The agent's health at `now`, from its state, the age of its last heartbeat and its reported problems. */
export function agentHealth(agent: Pick<Agent, 'state' | 'lastHeartbeatAt' | 'problems' | 'publicKey'>, now: number): AgentHealth {
  if (agent.state === 'disabled' || !agent.publicKey) return 'disabled'
  if (agent.lastHeartbeatAt === null) return 'offline'
  const age = now - agent.lastHeartbeatAt
  if (age > OFFLINE_AFTER_MS) return 'offline'
  if (age > ONLINE_WITHIN_MS || agent.problems.length > 0) return 'degraded'
  return 'online'
}

export const AGENT_HEALTH_LABELS: Record<AgentHealth, string> = {
  online: 'Online',
  degraded: 'Degraded',
  offline: 'Offline',
  disabled: 'Disabled',
}

/** The next beat after one: the interval spread by ±20 % (`random` in [0, 1)). */
export const nextHeartbeatDelay = (random: number, interval = HEARTBEAT_INTERVAL_MS) =>
  Math.round(interval * (1 - HEARTBEAT_JITTER + 2 * HEARTBEAT_JITTER * random))

const EnrolmentSchema = v.object({
  tokenHash: v.string(),
  locationId: v.string(),
  /** Set when the token re-enrols an existing agent (credentials rotated by an administrator). */
  agentId: v.optional(v.nullable(v.string()), null),
  name: v.string(),
  createdBy: v.string(),
  /** Who issued it, for the audit event of the enrolment it makes. */
  createdByUid: v.optional(v.nullable(v.string()), null),
  createdAt: TimestampSchema,
  expiresAt: TimestampSchema,
  usedAt: v.optional(v.nullable(TimestampSchema), null),
  usedByAgentId: v.optional(v.nullable(v.string()), null),
})
export type AgentEnrolment = v.InferOutput<typeof EnrolmentSchema>

export function enrolmentFromDocument(tokenHash: string, data: unknown): AgentEnrolment | null {
  if (typeof data !== 'object' || data === null) return null
  const parsed = v.safeParse(EnrolmentSchema, { ...data, tokenHash })
  return parsed.success ? parsed.output : null
}

export type EnrolmentRefusal = 'unknown' | 'used' | 'expired'

/** Why a token cannot enrol at `now`, or null when it can. */
export function enrolmentRefusal(enrolment: AgentEnrolment | null, now: number): EnrolmentRefusal | null {
  if (!enrolment) return 'unknown'
  if (enrolment.usedAt !== null) return 'used'
  if (now >= enrolment.expiresAt) return 'expired'
  return null
}
