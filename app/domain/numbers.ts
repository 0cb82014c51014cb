// Numbers as the product writes them: one locale, so the server's HTML and the browser's render
// agree. Each Intl object is made on first use, not when its module loads: the first one costs a
// browser several milliseconds (it loads the locale's data), and a page's modules all load in one
// task on the first visit.
let plain: Intl.NumberFormat | undefined
let compact: Intl.NumberFormat | undefined

/** 12,345 */
export const formatNumber = (n: number): string => (plain ??= new Intl.NumberFormat('en-GB')).format(n)

/** 12K, for a chart's axis. */
export const formatCompactNumber = (n: number): string => (compact ??= new Intl.NumberFormat('en-GB', { notation: 'compact' })).format(n)
