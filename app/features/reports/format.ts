// Numbers and dates as the report pages write them: one locale and UTC, so the server's HTML and
// the browser's render agree.
const numbers = new Intl.NumberFormat('en-GB')
const days = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' })
const months = new Intl.DateTimeFormat('en-GB', { month: 'short', year: '2-digit', timeZone: 'UTC' })

export const formatNumber = (n: number) => numbers.format(n)
export const formatDate = (at: number) => days.format(new Date(at))
/** "2026-03" as "Mar 26". */
export const formatMonth = (month: string) => months.format(new Date(`${month}-01T00:00:00Z`))
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0)
export const formatPercent = (part: number, whole: number) => `${percent(part, whole)}%`
export const formatDays = (d: number | null) => (d === null ? '–' : `${Math.round(d * 10) / 10} d`)
