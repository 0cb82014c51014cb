import { describe, expect, it } from 'vitest'
import { md4Hex, ntHash, recoverCase } from './nt-hash.ts'

const ascii = (text: string) => new TextEncoder().encode(text)

describe('md4Hex', () => {
  it('gives the RFC 1320 test vectors', () => {
    expect(md4Hex(ascii(''))).toBe('31d6cfe0d16ae931b73c59d7e0c089c0')
    expect(md4Hex(ascii('abc'))).toBe('a448017aaf21d8525fc10ae87aa6729d')
    expect(md4Hex(ascii('message digest'))).toBe('d9130a8164549fe818874806e1c7014b')
    expect(md4Hex(ascii('1234567890'.repeat(8)))).toBe('e33b4ddc9c38f2199c3e7b164fcc0536')
  })
})

describe('ntHash', () => {
  it('hashes the UTF-16LE password', () => {
    expect(ntHash('password')).toBe('8846f7eaee8fb117ad06bdd830b7586c')
    expect(ntHash('')).toBe('31d6cfe0d16ae931b73c59d7e0c089c0')
  })
})

describe('recoverCase', () => {
  it('finds the case variant of an LM plaintext whose NT hash matches', () => {
    expect(recoverCase('PASSWORD', ntHash('PassWord'))).toBe('PassWord')
    expect(recoverCase('ÄBC1!', ntHash('äBc1!'))).toBe('äBc1!')
  })

  it('returns null when no variant matches', () => {
    expect(recoverCase('PASSWORD', ntHash('Password1'))).toBeNull()
  })
})
