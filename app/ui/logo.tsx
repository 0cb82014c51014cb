import styled from 'styled-components'
import { brand } from '~/domain/brand'
import { sizes } from './theme'

/** The shield mark alone; it takes the brand colour and works on light and dark backgrounds. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 2.5 4.5 7v8.2c0 7 4.8 12.6 11.5 14.3 6.7-1.7 11.5-7.3 11.5-14.3V7L16 2.5Z" fill="var(--color-primary)" />
      <path d="M16 6.2 8 9.4v5.9c0 5 3.3 9 8 10.4V6.2Z" fill="var(--color-primary-text)" fillOpacity="0.28" />
      <path d="m11 15.8 3.4 3.4 6.6-6.8" fill="none" stroke="var(--color-primary-text)" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

const Wordmark = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 10px;
  max-height: ${sizes.logoMaxHeight}px;
  font-weight: 700;
  font-size: 20px;
  letter-spacing: 0.01em;
  color: var(--color-text);
`

/** Mark and name; the text colour follows the scheme, so one component serves light and dark. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Wordmark role="img" aria-label={brand.name}>
      <LogoMark size={size} />
      <span aria-hidden="true">{brand.name}</span>
    </Wordmark>
  )
}
