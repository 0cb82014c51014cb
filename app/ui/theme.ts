/**
 * Design tokens. Sizes, layers and timings are the product's constants; colours are CSS custom
 * properties so that light and dark switch without re-rendering and the server HTML is already
 * in the right scheme.
 */
export const sizes = {
  headerHeight: 80,
  footerHeight: 60,
  navbarWidth: 300,
  logoMaxHeight: 40,
  notificationWidth: 440,
  notificationMaxHeight: 200,
} as const

export const breakpoints = {
  /** Below this the navbar collapses (the "sm" breakpoint). */
  mobile: 768,
} as const

export const layers = {
  app: 100,
  modal: 200,
  popover: 300,
  overlay: 400,
} as const

export const timings = {
  menuCloseDelay: 100,
  modalTransition: 200,
  scrollHideDelay: 1000,
  notificationAutoClose: 4000,
  notificationTransition: 250,
  popoverFade: 150,
  tooltipFade: 100,
  /** Quiet time before a typed value is saved: text and tag fields, and fields saved through a callback. */
  autosaveDebounce: 250,
  autosaveCallbackDebounce: 2000,
  /** How long the saved value may differ from the typed one before the field asks what to keep. */
  autosaveLock: 300,
} as const

export const offsets = {
  popover: 8,
  tooltip: 5,
} as const

export const notificationsVisible = 5

const colorNames = [
  'bg',
  'surface',
  'surfaceRaised',
  'border',
  'text',
  'textMuted',
  'primary',
  'primaryText',
  'primarySoft',
  'focus',
  'danger',
  'success',
  'warning',
] as const
type ColorName = (typeof colorNames)[number]

const cssVar = (name: ColorName) => `--color-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`

export const colors = Object.fromEntries(colorNames.map((name) => [name, `var(${cssVar(name)})`])) as Record<ColorName, string>

type Palette = Record<ColorName, string>

const light: Palette = {
  bg: '#f6f7f9',
  surface: '#ffffff',
  surfaceRaised: '#ffffff',
  border: '#dde1e7',
  text: '#161b22',
  textMuted: '#57606a',
  primary: 'var(--brand-primary, #2563c9)',
  primaryText: '#ffffff',
  primarySoft: 'color-mix(in srgb, var(--brand-primary, #2563c9) 12%, transparent)',
  focus: 'var(--brand-primary, #2563c9)',
  danger: '#c62828',
  success: '#1e7f4f',
  warning: '#9a6700',
}

const dark: Palette = {
  bg: '#0e1116',
  surface: '#161b22',
  surfaceRaised: '#1c222b',
  border: '#30363d',
  text: '#e6edf3',
  textMuted: '#9aa4b0',
  primary: 'var(--brand-primary-dark, #6ea2ff)',
  primaryText: '#0e1116',
  primarySoft: 'color-mix(in srgb, var(--brand-primary-dark, #6ea2ff) 18%, transparent)',
  focus: 'var(--brand-primary-dark, #6ea2ff)',
  danger: '#ff7b72',
  success: '#56d364',
  warning: '#e3b341',
}

export const paletteCss = (palette: 'light' | 'dark') =>
  Object.entries(palette === 'light' ? light : dark)
    .map(([name, value]) => `${cssVar(name as ColorName)}: ${value};`)
    .join('\n')

export const fonts = {
  body: `system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif`,
  mono: `ui-monospace, SFMono-Regular, Menlo, Consolas, monospace`,
} as const

export const media = {
  mobile: `@media (max-width: ${breakpoints.mobile - 1}px)`,
} as const

/**
 * The deployment's primary colours (wrangler vars PRIMARY_COLOR and PRIMARY_COLOR_DARK) as the CSS
 * variables the palettes read; empty when the defaults apply. The values were checked to be
 * #rrggbb colours, so they are safe inside a style element.
 */
export function brandColorsCss(colors: { light: string | null; dark: string | null } | undefined): string {
  const declarations = [
    colors?.light ? `--brand-primary: ${colors.light};` : '',
    colors?.dark ? `--brand-primary-dark: ${colors.dark};` : '',
  ].join('')
  return declarations ? `:root{${declarations}}` : ''
}
