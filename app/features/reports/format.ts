// Figures as the report pages write them (numbers from #domain/numbers.ts). Dates go through
// ~/ui/local-time, the product's one date format.
export { formatNumber } from '#domain/numbers.ts'
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0)
export const formatPercent = (part: number, whole: number) => `${percent(part, whole)}%`
export const formatDays = (d: number | null) => (d === null ? '–' : `${Math.round(d * 10) / 10} d`)
