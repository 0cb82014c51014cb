import { describe, expect, it } from 'vitest'
import { photoSources, servedWidth } from './photos.ts'

describe('photo widths', () => {
  it('draws a photo at the served width nearest above its size, and twice that for dense screens', () => {
    expect(servedWidth(32)).toBe(32)
    expect(servedWidth(36)).toBe(48)
    expect(servedWidth(385)).toBe(640)
    expect(servedWidth(5000)).toBe(3840)
    const { src, srcSet } = photoSources('https://photos.example/a b.png?x=1', 56)
    expect(src).toBe('/api/photos?url=https%3A%2F%2Fphotos.example%2Fa+b.png%3Fx%3D1&w=64')
    expect(srcSet).toBe(`${src} 1x, /api/photos?url=https%3A%2F%2Fphotos.example%2Fa+b.png%3Fx%3D1&w=128 2x`)
  })
})
