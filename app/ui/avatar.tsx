import { useState } from 'react'
import styled from 'styled-components'
import { photoSources } from '#domain/photos.ts'

const Circle = styled.span<{ $size: number }>`
  display: inline-grid;
  place-items: center;
  flex: none;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  border-radius: 50%;
  overflow: hidden;
  background: var(--color-primary-soft);
  color: var(--color-primary);
  font-weight: 700;
  font-size: ${({ $size }) => Math.round($size * 0.4)}px;
  /* Initials centred on the circle itself, not on the line box of the text around it. */
  line-height: 1;
  text-align: center;

  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`

/** Up to two initials from a name, or the address's first letter. */
export function initialsOf(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return (email[0] ?? '?').toUpperCase()
  return words
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('')
}

/** The person's photo (through the app's origin, at the served widths for its size), or their initials when there is none or it does not load. */
export function Avatar({ name, email, photoURL, size = 32 }: { name: string; email: string; photoURL: string; size?: number }) {
  const [brokenURL, setBrokenURL] = useState<string | null>(null)
  const showPhoto = photoURL !== '' && photoURL !== brokenURL
  return (
    <Circle $size={size} aria-hidden="true">
      {showPhoto ? (
        <img {...photoSources(photoURL, size)} alt="" width={size} height={size} onError={() => setBrokenURL(photoURL)} />
      ) : (
        initialsOf(name, email)
      )}
    </Circle>
  )
}
