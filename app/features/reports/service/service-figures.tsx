// What each service's report shows from a scan's figures (ServiceScanStats) and the service's
// live counters: its key figures and its charts, each chart with its table view.
import type { ReactNode } from 'react'
import type { Scan, ServiceScanStats, ScanStatsOf } from '#domain/scans.ts'
import { openTotal, type ServiceStats } from '#domain/service-stats.ts'
import { SEVERITIES, severityLabels } from '#domain/template-vocabulary.ts'
import { BarList } from '../charts/bar-list'
import { ChartFrame } from '../charts/chart-frame'
import type { MonthFigures } from '../data/report-data'
import type { Series } from '../charts/legend'
import { BarsChart, LinesChart } from '../charts/lazy-charts'
import { Heatmap } from '../charts/heatmap'
import { SeriesChart } from '../charts/series-chart'
import { formatMonth, useTimeFormat } from '~/ui/local-time'
import { formatDays, formatNumber, formatPercent, percent } from '../format'
import type { Kpi } from './kpi-cards'

const n = formatNumber
const severitySeries: Series[] = SEVERITIES.map((s) => ({ key: s, label: severityLabels[s], tone: s }))
type ScanLabel = (scan: Scan) => string

/** A scan named on a chart by its date, in the reader's format (empty until the page runs in the browser). */
function useScanLabel(): ScanLabel {
  const format = useTimeFormat()
  return (scan) => format(scan.publishedAt ?? scan.startedAt, 'date')
}

/** The live counters every service shares: open findings and their SLA. */
export function findingKpis(stats: ServiceStats): Kpi[] {
  const open = openTotal(stats.open)
  const breached = openTotal(stats.breached)
  const dueSoon = openTotal(stats.dueSoon)
  return [
    { label: 'Open findings', value: n(open), note: `${n(stats.open.critical)} critical, ${n(stats.open.high)} high` },
    { label: 'SLA breached', value: n(breached), tone: breached > 0 ? 'danger' : undefined },
    { label: 'SLA due soon', value: n(dueSoon), tone: dueSoon > 0 ? 'warning' : undefined },
  ]
}

/** The key figures of one scan, per service. */
export function scanKpis(stats: ServiceScanStats): Kpi[] {
  switch (stats.service) {
    case 'projectmariana':
      return [
        { label: 'Domains', value: n(stats.domains), note: `${n(stats.subdomains)} subdomains` },
        { label: 'IP addresses', value: n(stats.ips) },
        { label: 'Open ports', value: n(stats.openPorts) },
        { label: 'Certificates', value: n(stats.certificates) },
        {
          label: 'Certificates expiring',
          value: n(stats.certificatesExpiringSoon),
          note: `${n(stats.certificatesExpired)} expired`,
          tone: stats.certificatesExpired > 0 ? 'danger' : stats.certificatesExpiringSoon > 0 ? 'warning' : undefined,
        },
        { label: 'Risky exposures', value: n(stats.riskyExposures), tone: stats.riskyExposures > 0 ? 'danger' : undefined },
        { label: 'Assets new / gone', value: `${n(stats.assetsNew)} / ${n(stats.assetsGone)}`, note: 'since the previous scan' },
      ]
    case 'password_cracking':
      return [
        { label: 'Accounts audited', value: n(stats.accountsAudited) },
        {
          label: 'Cracked',
          value: n(stats.cracked),
          note: `${formatPercent(stats.cracked, stats.accountsAudited)} of accounts`,
          tone: stats.cracked > 0 ? 'danger' : 'success',
        },
        {
          label: 'Privileged accounts cracked',
          value: n(stats.privilegedCracked),
          tone: stats.privilegedCracked > 0 ? 'danger' : undefined,
        },
        { label: 'Below policy length', value: n(stats.belowPolicy), note: `policy minimum ${stats.policyMinLength} characters` },
        { label: 'Username as password', value: n(stats.usernameAsPassword) },
        { label: 'Reuse clusters', value: n(stats.reuseClusters), note: `largest shared by ${n(stats.largestReuseCluster)} accounts` },
        { label: 'LM hashes', value: n(stats.lmHashes) },
      ]
    case 'dast':
      return [
        { label: 'Targets', value: n(stats.targets) },
        { label: 'Instances', value: n(stats.instances), note: 'places a rule matched' },
      ]
    case 'network':
      return [
        { label: 'Hosts up', value: n(stats.hostsUp) },
        { label: 'Open ports', value: n(stats.openPorts) },
        { label: 'Services', value: n(stats.services.length) },
        { label: 'Vulnerable hosts', value: n(stats.vulnerableHosts), tone: stats.vulnerableHosts > 0 ? 'danger' : undefined },
        { label: 'New open ports', value: n(stats.newOpenPorts), tone: stats.newOpenPorts > 0 ? 'warning' : undefined },
      ]
    case 'cloud':
      return [
        { label: 'Accounts', value: n(stats.accounts), note: `${n(stats.regions)} regions` },
        { label: 'Checks run', value: n(stats.checksRun) },
        {
          label: 'Passed',
          value: n(stats.passed),
          note: `${formatPercent(stats.passed, stats.passed + stats.failed)} pass rate`,
          tone: 'success',
        },
        { label: 'Failed', value: n(stats.failed), tone: stats.failed > 0 ? 'danger' : undefined },
        { label: 'Manual', value: n(stats.manual), note: 'need a person to check' },
      ]
  }
}

/** The scan's findings compared with the previous comparable scan (scan.counts). */
export function scanCountKpis(scan: Scan): Kpi[] {
  const c = scan.counts
  return [
    { label: 'Findings in this scan', value: n(c.total) },
    { label: 'New', value: n(c.new), tone: c.new > 0 ? 'warning' : undefined },
    { label: 'No longer detected', value: n(c.notDetected) },
    { label: 'Reopened', value: n(c.reopened), tone: c.reopened > 0 ? 'danger' : undefined },
  ]
}

function NamedBars({
  title,
  summary,
  rows,
  label,
}: {
  title: string
  summary?: string
  rows: readonly { name: string; count: number }[]
  label: string
}) {
  return (
    <SeriesChart
      title={title}
      summary={summary}
      kind="bars"
      data={rows.map((r) => ({ name: r.name, count: r.count }))}
      category="name"
      categoryLabel="Name"
      series={[{ key: 'count', label, tone: 0 }]}
      horizontal
    />
  )
}

/** Findings by severity in each scan, oldest first: every service has it. */
function SeverityPerScan({ scans }: { scans: readonly Scan[] }) {
  const scanLabel = useScanLabel()
  const ordered = [...scans].reverse()
  const data = ordered.map((scan) => ({ scan: scanLabel(scan), ...scan.counts.bySeverity }))
  return (
    <SeriesChart
      title="Findings by severity per scan"
      kind="bars"
      data={data}
      category="scan"
      categoryLabel="Scan"
      series={severitySeries}
      stacked
    />
  )
}

/** Earlier scans of the same service, oldest first, with the figures of each. */
const history = <S extends ServiceScanStats['service']>(scans: readonly Scan[], service: S, scanLabel: ScanLabel) =>
  [...scans]
    .reverse()
    .filter((scan): scan is Scan & { stats: ScanStatsOf<S> } => scan.stats.service === service)
    .map((scan) => ({ label: scanLabel(scan), stats: scan.stats }))

function ProjectMarianaCharts({ stats, scans }: { stats: ScanStatsOf<'projectmariana'>; scans: readonly Scan[] }) {
  const scanLabel = useScanLabel()
  const over = history(scans, 'projectmariana', scanLabel).map(({ label, stats: s }) => ({
    scan: label,
    subdomains: s.subdomains,
    ips: s.ips,
    openPorts: s.openPorts,
    assetsNew: s.assetsNew,
    assetsGone: s.assetsGone,
  }))
  return (
    <>
      <SeriesChart
        title="Assets over time"
        kind="lines"
        data={over}
        category="scan"
        categoryLabel="Scan"
        series={[
          { key: 'subdomains', label: 'Subdomains', tone: 0 },
          { key: 'ips', label: 'IP addresses', tone: 1 },
          { key: 'openPorts', label: 'Open ports', tone: 2 },
        ]}
      />
      <SeriesChart
        title="Assets new and gone per scan"
        kind="bars"
        data={over}
        category="scan"
        categoryLabel="Scan"
        series={[
          { key: 'assetsNew', label: 'New', tone: 0 },
          { key: 'assetsGone', label: 'Gone', tone: 5 },
        ]}
      />
      <NamedBars title="Top technologies" rows={stats.technologies.slice(0, 10)} label="Assets" />
      <NamedBars title="Open ports by service" rows={stats.portsByService.slice(0, 10)} label="Ports" />
    </>
  )
}

function PasswordCrackingCharts({ stats, scans }: { stats: ScanStatsOf<'password_cracking'>; scans: readonly Scan[] }) {
  const scanLabel = useScanLabel()
  // Two series split at the policy minimum: the colour changes where the policy starts.
  const lengths = stats.lengthHistogram
    .map((count, length) => ({
      length: length === 32 ? '32+' : String(length),
      below: length < stats.policyMinLength ? count : 0,
      meets: length >= stats.policyMinLength ? count : 0,
      count,
    }))
    .filter((_, i) => i > 0)
  const classes = stats.classCounts.map((count, i) => ({ classes: `${i + 1}`, count }))
  const over = history(scans, 'password_cracking', scanLabel).map(({ label, stats: s }) => ({
    scan: label,
    share: percent(s.cracked, s.accountsAudited),
  }))
  return (
    <>
      <ChartFrame
        title="Cracked passwords by length"
        summary={`Shorter than the policy minimum of ${stats.policyMinLength} characters, and at or above it.`}
        table={{ columns: ['Length', 'Cracked passwords'], rows: lengths.map((l) => [l.length, l.count]) }}
      >
        <BarsChart
          data={lengths}
          category="length"
          series={[
            { key: 'below', label: 'Below policy', tone: 3 },
            { key: 'meets', label: 'Meets policy', tone: 0 },
          ]}
          stacked
        />
      </ChartFrame>
      <SeriesChart
        title="Character classes used"
        summary="Lower case, upper case, digits and symbols: how many of the four each cracked password uses."
        kind="bars"
        data={classes}
        category="classes"
        categoryLabel="Classes"
        series={[{ key: 'count', label: 'Cracked passwords', tone: 1 }]}
      />
      <NamedBars title="Patterns" summary="Cracked passwords by the pattern they follow." rows={stats.patterns} label="Passwords" />
      <SeriesChart
        title="Cracked share over audits"
        kind="lines"
        data={over}
        category="scan"
        categoryLabel="Audit"
        series={[{ key: 'share', label: 'Cracked (%)', tone: 3 }]}
        percent
      />
    </>
  )
}

function DastCharts({ stats }: { stats: ScanStatsOf<'dast'> }) {
  return (
    <>
      <NamedBars title="OWASP Top 10" summary="Findings of this scan by OWASP Top 10 category." rows={stats.owaspTop10} label="Findings" />
      <NamedBars
        title="Top endpoints"
        summary="Where most instances were found."
        rows={stats.topEndpoints.slice(0, 10)}
        label="Instances"
      />
    </>
  )
}

function NetworkCharts({ stats, scans }: { stats: ScanStatsOf<'network'>; scans: readonly Scan[] }) {
  const scanLabel = useScanLabel()
  const hosts = stats.hostSeverity.slice(0, 15)
  const over = history(scans, 'network', scanLabel).map(({ label, stats: s }) => ({
    scan: label,
    openPorts: s.openPorts,
    newOpenPorts: s.newOpenPorts,
  }))
  return (
    <>
      <ChartFrame
        title="Hosts by severity"
        summary="The hosts with most findings; the stronger the colour, the more findings."
        table={{
          columns: ['Host', ...SEVERITIES.map((s) => severityLabels[s])],
          rows: hosts.map((h) => [h.host, ...SEVERITIES.map((s) => h[s])]),
        }}
      >
        <Heatmap
          rows={hosts.map((h) => h.host)}
          columns={SEVERITIES.map((s) => severityLabels[s])}
          values={hosts.map((h) => SEVERITIES.map((s) => h[s]))}
        />
      </ChartFrame>
      <NamedBars title="Services" summary="Open ports by the service behind them." rows={stats.services.slice(0, 12)} label="Ports" />
      <SeriesChart
        title="Open ports per scan"
        kind="bars"
        data={over}
        category="scan"
        categoryLabel="Scan"
        series={[
          { key: 'openPorts', label: 'Open ports', tone: 0 },
          { key: 'newOpenPorts', label: 'New open ports', tone: 2 },
        ]}
      />
    </>
  )
}

function CloudCharts({ stats, scans }: { stats: ScanStatsOf<'cloud'>; scans: readonly Scan[] }) {
  const scanLabel = useScanLabel()
  const accounts = [...new Set(stats.byAccountRegion.map((a) => a.account))]
  const regions = [...new Set(stats.byAccountRegion.map((a) => a.region))]
  const failures = accounts.map((account) =>
    regions.map((region) => stats.byAccountRegion.find((a) => a.account === account && a.region === region)?.failed ?? 0),
  )
  const frameworks = stats.frameworks.map((f) => ({
    name: f.name,
    compliance: percent(f.passed, f.total),
    passed: f.passed,
    total: f.total,
  }))
  const over = history(scans, 'cloud', scanLabel).map(({ label, stats: s }) => ({ scan: label, failed: s.failed, passed: s.passed }))
  return (
    <>
      <SeriesChart
        title="Checks by cloud service"
        kind="bars"
        data={stats.byCloudService.map((c) => ({ ...c }))}
        category="name"
        categoryLabel="Cloud service"
        series={[
          { key: 'passed', label: 'Passed', tone: 1 },
          { key: 'failed', label: 'Failed', tone: 3 },
        ]}
        stacked
        horizontal
      />
      <ChartFrame
        title="Failed checks by account and region"
        table={{ columns: ['Account', ...regions], rows: accounts.map((account, i) => [account, ...failures[i]!]) }}
      >
        <Heatmap rows={accounts} columns={regions} values={failures} />
      </ChartFrame>
      <ChartFrame
        title="Compliance per framework"
        table={{
          columns: ['Framework', 'Passed', 'Checks', 'Compliance (%)'],
          rows: frameworks.map((f) => [f.name, f.passed, f.total, f.compliance]),
        }}
      >
        <BarList data={frameworks} category="name" series={[{ key: 'compliance', label: 'Compliance (%)', tone: 1 }]} percent />
      </ChartFrame>
      <SeriesChart
        title="Failures over scans"
        kind="lines"
        data={over}
        category="scan"
        categoryLabel="Scan"
        series={[
          { key: 'failed', label: 'Failed', tone: 3 },
          { key: 'passed', label: 'Passed', tone: 1 },
        ]}
      />
    </>
  )
}

/** The service's own charts for the chosen scan, then findings by severity over its scans. */
export function ServiceCharts({ scan, scans }: { scan: Scan; scans: readonly Scan[] }): ReactNode {
  const stats = scan.stats
  const own = (() => {
    switch (stats.service) {
      case 'projectmariana':
        return <ProjectMarianaCharts stats={stats} scans={scans} />
      case 'password_cracking':
        return <PasswordCrackingCharts stats={stats} scans={scans} />
      case 'dast':
        return <DastCharts stats={stats} />
      case 'network':
        return <NetworkCharts stats={stats} scans={scans} />
      case 'cloud':
        return <CloudCharts stats={stats} scans={scans} />
    }
  })()
  return (
    <>
      {own}
      <SeverityPerScan scans={scans} />
    </>
  )
}

/** Time to remediate: mean and median days per severity per month (fixed findings). */
export function RemediationChart({ months }: { months: readonly MonthFigures[] }) {
  const rows = months.map((m) => ({ month: formatMonth(m.month), ...m.remediation }))
  const shown = SEVERITIES.filter((s) => s !== 'info')
  const data = rows.map((r) => ({
    month: r.month,
    ...Object.fromEntries(shown.map((s) => [s, r[s].medianDays === null ? null : Math.round(r[s].medianDays!)])),
  }))
  return (
    <ChartFrame
      title="Time to remediate"
      summary="Median days from publication to fix, per severity per month; the table adds the mean."
      table={{
        columns: [
          'Month',
          ...shown.flatMap((s) => [`${severityLabels[s]} mean`, `${severityLabels[s]} median`, `${severityLabels[s]} fixed`]),
        ],
        rows: rows.map((r) => [r.month, ...shown.flatMap((s) => [formatDays(r[s].meanDays), formatDays(r[s].medianDays), r[s].count])]),
      }}
    >
      <LinesChart data={data} category="month" series={shown.map((s) => ({ key: s, label: severityLabels[s], tone: s }))} />
    </ChartFrame>
  )
}
