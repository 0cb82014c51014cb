// Numbers as the product writes them: one locale ('en-GB'), so the server's HTML and the browser's
// render agree.
let compact: Intl.NumberFormat | undefined

const DECIMALS = 3

/** Whole and fraction digits of `size` (not negative) rounded half away from zero, as Intl rounds. */
function roundedDigits(size: number): { whole: string; fraction: string } {
  // The shortest decimal that reads back as `size`: the value Intl rounds.
  const [, int = '0', frac = '', exponent = '0'] = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(size)) ?? []
  let digits = int + frac
  let point = int.length + Number(exponent)
  if (point < 0) {
    digits = '0'.repeat(-point) + digits
    point = 0
  }
  const keep = point + DECIMALS
  let kept = digits.slice(0, keep).padEnd(keep, '0')
  if ((digits[keep] ?? '0') >= '5') kept = (BigInt(kept) + 1n).toString().padStart(keep, '0')
  const wholeLength = point + kept.length - keep
  return { whole: kept.slice(0, wholeLength) || '0', fraction: kept.slice(wholeLength).replace(/0+$/, '') }
}

/**
 * 12,345 and 1,234.5: thousands grouped, at most three decimals, as Intl writes 'en-GB'. Written
 * out rather than through Intl: a browser's first Intl number format loads the locale's data, some
 * 15 ms of a phone's main thread in the middle of a report's first render.
 */
export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  const sign = n < 0 || Object.is(n, -0) ? '-' : ''
  if (!Number.isFinite(n)) return `${sign}∞`
  const { whole, fraction } = roundedDigits(Math.abs(n))
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction ? `.${fraction}` : ''}`
}

/** 12k, for a chart's axis (the charts' code loads when a reader reaches for a chart). */
export const formatCompactNumber = (n: number): string => (compact ??= new Intl.NumberFormat('en-GB', { notation: 'compact' })).format(n)
