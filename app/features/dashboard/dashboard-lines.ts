// What the home dashboard says, from the company's activity and service figures: one line per
// service and kind of change, newest first, and one per service whose SLAs are about to break.
import { activityTally, type CompanyActivity, type CompanyActivityType } from '#domain/company-activity.ts'
import type { ServiceStats } from '#domain/service-stats.ts'
import { openTotal } from '#domain/service-stats.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'

export interface DashboardLine {
  key: string
  service: ServiceId
  text: string
  href: string
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

const reportHref = (service: ServiceId) => `/reports/${service}`
const label = (service: ServiceId) => serviceById(service)?.label ?? service

/** Activity summed per service and kind, the most recent first. */
export function activityLines(activity: readonly CompanyActivity[]): DashboardLine[] {
  const groups = new Map<string, { service: ServiceId; type: CompanyActivityType; count: number; at: number }>()
  for (const item of activity) {
    const key = `${item.service}:${item.type}`
    const group = groups.get(key)
    if (group) {
      group.count += activityTally(item)
      group.at = Math.max(group.at, item.at)
    } else groups.set(key, { service: item.service, type: item.type, count: activityTally(item), at: item.at })
  }
  return [...groups.entries()]
    .sort(([, a], [, b]) => b.at - a.at)
    .map(([key, g]) => ({
      key,
      service: g.service,
      text: `${phrases[g.type].say(g.count)} in ${label(g.service)}`,
      href: reportHref(g.service),
      at: g.at,
      tone: phrases[g.type].tone,
    }))
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
        href: reportHref(service),
        at: null,
        tone: breached > 0 ? ('danger' as const) : ('warning' as const),
      },
    ]
  })
}
