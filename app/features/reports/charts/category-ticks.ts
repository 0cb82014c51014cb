// How a chart's category axis (scans, months) writes its labels so that none runs into the next,
// from the labels alone: the charts have fixed coordinates (charts.tsx), so the same labels give
// the same axis on the server and in the browser, at every width the drawing is scaled to.

/** The widest a label is drawn, in characters (longer ones are cut with an ellipsis). */
export const TICK_CHARACTERS = 12
/** A character of the 12 px tick text, at most, in the drawing's units. */
const CHARACTER_WIDTH = 7.2
/** The room a line of tick text needs across its direction. */
const LINE_HEIGHT = 15
/** Space kept between two level labels. */
const GAP = 8
/** Labels that do not fit level are drawn at this angle, rising to the right. */
export const TICK_ANGLE = 40
/** The height of a level axis (Recharts' default). */
export const LEVEL_AXIS_HEIGHT = 30

export interface CategoryTicks {
  /** 0: level; else the labels are turned by this many degrees (counter-clockwise). */
  angle: number
  /** Every how many categories a label is written, counted from the last (the latest scan). */
  every: number
  /** The axis's height, in the drawing's units, that its labels need. */
  height: number
}

const radians = (degrees: number) => (degrees * Math.PI) / 180

/** The layout of `labels` spread evenly over `plotWidth` units. */
export function categoryTicks(labels: readonly string[], plotWidth: number): CategoryTicks {
  const count = Math.max(labels.length, 1)
  const slot = plotWidth / count
  const widest = Math.max(0, ...labels.map((label) => Math.min(label.length, TICK_CHARACTERS))) * CHARACTER_WIDTH
  if (widest + GAP <= slot) return { angle: 0, every: 1, height: LEVEL_AXIS_HEIGHT }
  // Turned labels lie side by side `slot × sin(angle)` apart, across their direction.
  const apart = slot * Math.sin(radians(TICK_ANGLE))
  const every = Math.max(1, Math.ceil(LINE_HEIGHT / apart))
  const height = Math.ceil(widest * Math.sin(radians(TICK_ANGLE)) + LINE_HEIGHT * Math.cos(radians(TICK_ANGLE))) + 10
  return { angle: TICK_ANGLE, every, height }
}

/** Whether the category at `index` of `count` gets its label (the last always does). */
export const labelled = (layout: CategoryTicks, index: number, count: number) => (count - 1 - index) % layout.every === 0
