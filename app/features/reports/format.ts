// Numbers as the report pages write them: one locale, so the server's HTML and the browser's
// render agree. Dates go through ~/ui/local-time, the product's one date format.
const numbers = new Intl.NumberFormat('en-GB')

export const formatNumber = (n: number) => numbers.format(n)
export const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0)
export const formatPercent = (part: number, whole: number) => `${percent(part, whole)}%`
export const formatDays = (d: number | null) => (d === null ? '–' : `${Math.round(d * 10) / 10} d`)
