// What the home dashboard says, from the company's activity and service figures: a line per
// published scan, one per service and other kind of change, newest first, and one per service
// whose SLAs are about to break. Each line links to the place it names: the scan's report, the
// finding's page, or the service's findings narrowed to what the line counts.
import { activityTally, type CompanyActivity, type CompanyActivityType } from '#domain/company-activity.ts'
import { findingStatusLabels, type FindingStatus } from '#domain/findings.ts'
import { findingLink, reportLink } from '#domain/report-links.ts'
import type { ServiceStats } from '#domain/service-stats.ts'
import { openTotal } from '#domain/service-stats.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'

export interface DashboardLine {
  key: string
  service: ServiceId
  text: string
  href: string
  /** Where the link lands, in words ("Opens the finding"): said with the line. */
  where: string
  /** The latest change the line counts (epoch ms); null for standing figures. */
  at: number | null
  tone: 'neutral' | 'good' | 'warning' | 'danger'
}

/** Updates per service summed since the last visit; beyond, the page says more happened. */
export const SINCE_LIMIT = 200

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

const phrases: Record<CompanyActivityType, { say: (n: number) => string; tone: DashboardLine['tone'] }> = {
  scan_published: { say: (n) => plural(n, 'scan published', 'scans published'), tone: 'neutral' },
  findings_new: { say: (n) => plural(n, 'new finding', 'new findings'), tone: 'warning' },
  findings_fixed: { say: (n) => plural(n, 'finding fixed', 'findings fixed'), tone: 'good' },
  retest_requested: { say: (n) => plural(n, 'retest requested', 'retests requested'), tone: 'neutral' },
  retest_completed: { say: (n) => plural(n, 'retest completed', 'retests completed'), tone: 'good' },
  acceptance_requested: { say: (n) => plural(n, 'risk acceptance requested', 'risk acceptances requested'), tone: 'neutral' },
  acceptance_decided: { say: (n) => plural(n, 'risk acceptance decided', 'risk acceptances decided'), tone: 'neutral' },
  sla_breached: { say: (n) => plural(n, 'SLA breached', 'SLAs breached'), tone: 'danger' },
}

/** The findings a kind of change leaves in a status, where that status is the place to see them. */
const statusOf: Partial<Record<CompanyActivityType, FindingStatus>> = {
  findings_fixed: 'fixed',
  retest_requested: 'retest_requested',
  acceptance_requested: 'acceptance_requested',
  acceptance_decided: 'risk_accepted',
}

const label = (service: ServiceId) => serviceById(service)?.label ?? service

/** The one value every item names, or null when one names none or two differ. */
function sameOf(items: readonly CompanyActivity[], key: 'scanId' | 'findingId'): string | null {
  const first = items[0]?.[key] ?? null
  return first !== null && items.every((item) => item[key] === first) ? first : null
}

/** Where a line of `items` (one service, one kind) lands, and that place in words. */
function placeOf(service: ServiceId, type: CompanyActivityType, items: readonly CompanyActivity[]): Pick<DashboardLine, 'href' | 'where'> {
  const finding = sameOf(items, 'findingId')
  if (finding) return { href: findingLink(service, finding), where: 'Opens the finding' }
  const scan = sameOf(items, 'scanId')
  if (scan) return { href: reportLink(service, { scan }), where: `Opens the ${label(service)} report at the scan they came from` }
  if (type === 'sla_breached') return slaPlace(service)
  const status = statusOf[type]
  if (status)
    return {
      href: reportLink(service, { status: [status] }),
      where: `Opens the ${label(service)} findings: ${findingStatusLabels[status].toLowerCase()}`,
    }
  // New findings of several scans: the latest scan holds them all among its open findings.
  const latest = type === 'findings_new' ? (items.find((item) => item.scanId !== null)?.scanId ?? null) : null
  if (latest) return { href: reportLink(service, { scan: latest }), where: `Opens the ${label(service)} report at the latest scan` }
  return { href: reportLink(service), where: `Opens the ${label(service)} report` }
}

const slaPlace = (service: ServiceId): Pick<DashboardLine, 'href' | 'where'> => ({
  href: reportLink(service, { sort: 'sla' }),
  where: `Opens the ${label(service)} findings, the nearest their due date first`,
})

/** A published scan's own line: the scan it names, and its report at that scan. */
function scanLine(item: CompanyActivity): DashboardLine {
  return {
    key: `${item.service}:scan:${item.id}`,
    service: item.service,
    text: item.summary ? `${label(item.service)}: ${item.summary}` : `Scan published in ${label(item.service)}`,
    ...(item.scanId
      ? { href: reportLink(item.service, { scan: item.scanId }), where: `Opens the ${label(item.service)} report at this scan` }
      : { href: reportLink(item.service), where: `Opens the ${label(item.service)} report` }),
    at: item.at,
    tone: phrases.scan_published.tone,
  }
}

/**
 * A line per published scan, and the other changes summed per service and kind; the most recent
 * first. `activity` comes newest first.
 */
export function activityLines(activity: readonly CompanyActivity[]): DashboardLine[] {
  const lines: DashboardLine[] = []
  const groups = new Map<string, { service: ServiceId; type: CompanyActivityType; items: CompanyActivity[] }>()
  for (const item of activity) {
    if (item.type === 'scan_published') {
      lines.push(scanLine(item))
      continue
    }
    const key = `${item.service}:${item.type}`
    const group = groups.get(key)
    if (group) group.items.push(item)
    else groups.set(key, { service: item.service, type: item.type, items: [item] })
  }
  for (const [key, g] of groups) {
    const count = g.items.reduce((sum, item) => sum + activityTally(item), 0)
    lines.push({
      key,
      service: g.service,
      text: `${phrases[g.type].say(count)} in ${label(g.service)}`,
      ...placeOf(g.service, g.type, g.items),
      at: Math.max(...g.items.map((item) => item.at)),
      tone: phrases[g.type].tone,
    })
  }
  return lines.sort((a, b) => (b.at ?? 0) - (a.at ?? 0))
}

/** Per service, the open findings whose SLA is due soon or breached now. */
export function slaLines(stats: Partial<Record<ServiceId, ServiceStats>>, order: readonly ServiceId[]): DashboardLine[] {
  return order.flatMap((service) => {
    const figures = stats[service]
    if (!figures) return []
    const dueSoon = openTotal(figures.dueSoon)
    const breached = openTotal(figures.breached)
    if (dueSoon === 0 && breached === 0) return []
    const parts = [
      ...(breached > 0 ? [plural(breached, 'finding past its SLA', 'findings past their SLA')] : []),
      ...(dueSoon > 0 ? [plural(dueSoon, 'finding due soon', 'findings due soon')] : []),
    ]
    return [
      {
        key: `${service}:sla`,
        service,
        text: `${parts.join(', ')} in ${label(service)}`,
        ...slaPlace(service),
        at: null,
        tone: breached > 0 ? ('danger' as const) : ('warning' as const),
      },
    ]
  })
}
