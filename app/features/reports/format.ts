// Figures as the report pages write them (numbers from #domain/numbers.ts). Dates go through
// ~/ui/local-time, the product's one date format.
export { formatNumber } from '#domain/numbers.ts'
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0)
export const formatPercent = (part: number, whole: number) => `${percent(part, whole)}%`
export const formatDays = (d: number | null) => (d === null ? '–' : `${Math.round(d * 10) / 10} d`)
/** An EPSS score or percentile (0 to 1) as a percentage to a hundredth: 0.9996 is "99.96%", not a rounded "100%". */
export const formatProbability = (unit: number) => `${(Math.round(unit * 10_000) / 100).toFixed(2)}%`
