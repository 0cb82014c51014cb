import styled from 'styled-components'
import { brand } from '#domain/brand.ts'
import { sizes } from './theme'

/**
 * The fixed colours of the two variants (also in public/logo-light.svg and public/logo-dark.svg):
 * "light" is drawn for light backgrounds, "dark" for dark ones. "auto" follows the page's scheme
 * and the configured primary colour.
 */
export const logoInks = {
  light: { shield: '#2563c9', check: '#ffffff', text: '#161b22' },
  dark: { shield: '#6ea2ff', check: '#0e1116', text: '#e6edf3' },
  auto: { shield: 'var(--color-primary)', check: 'var(--color-primary-text)', text: 'var(--color-text)' },
} as const

export type LogoVariant = keyof typeof logoInks

/** The shield mark alone. */
export function LogoMark({ size = 32, variant = 'auto' }: { size?: number; variant?: LogoVariant }) {
  const ink = logoInks[variant]
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 2.5 4.5 7v8.2c0 7 4.8 12.6 11.5 14.3 6.7-1.7 11.5-7.3 11.5-14.3V7L16 2.5Z" fill={ink.shield} />
      <path d="M16 6.2 8 9.4v5.9c0 5 3.3 9 8 10.4V6.2Z" fill={ink.check} fillOpacity="0.28" />
      <path d="m11 15.8 3.4 3.4 6.6-6.8" fill="none" stroke={ink.check} strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

const Wordmark = styled.span<{ $text: string }>`
  display: inline-flex;
  align-items: center;
  gap: 10px;
  max-height: ${sizes.logoMaxHeight}px;
  font-weight: 700;
  font-size: 20px;
  letter-spacing: 0.01em;
  color: ${({ $text }) => $text};
`

/** Mark and name. */
export function Logo({ size = 32, variant = 'auto' }: { size?: number; variant?: LogoVariant }) {
  return (
    <Wordmark role="img" aria-label={brand.name} $text={logoInks[variant].text}>
      <LogoMark size={size} variant={variant} />
      <span aria-hidden="true">{brand.name}</span>
    </Wordmark>
  )
}
