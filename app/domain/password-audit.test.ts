import { describe, expect, it } from 'vitest'
import {
  CHARACTER_CLASSES,
  characterClasses,
  describePassword,
  maskPassword,
  PASSWORD_PATTERNS,
  passwordPatterns,
} from './password-audit.ts'

const context = { username: 'ACME\\j.smith', companyNames: ['Acme', 'Roadrunner'] }

// Cracked passwords as audits find them.
const SAMPLES = [
  'Summer2024!',
  'Winter24',
  'Acme2026',
  'Acm3@2025',
  'qwerty123',
  'Qwertz!2023',
  '1qaz2wsx',
  'Password1',
  'j.smith2024',
  'Roadrunner!1',
  'correct horse battery staple',
  'Tr0ub4dor&3',
  'aB3$',
  'hunter2',
]

describe('maskPassword', () => {
  it('shows the first character and the last two, with stars that hide the length', () => {
    expect(maskPassword('Summer2024')).toBe('S*****24')
    expect(maskPassword('Summer2024!!!')).toBe('S*****!!')
  })

  it('masks short passwords whole', () => {
    expect(maskPassword('hunter2')).toBe('********')
    expect(maskPassword('')).toBe('********')
    expect(maskPassword('a')).toBe('********')
  })
})

describe('characterClasses', () => {
  it('names the classes a password uses', () => {
    expect(characterClasses('Summer2024!')).toEqual(['lower', 'upper', 'digit', 'symbol'])
    expect(characterClasses('password')).toEqual(['lower'])
    expect(characterClasses('12345678')).toEqual(['digit'])
    expect(characterClasses('Ünïcode9')).toEqual(['lower', 'upper', 'digit'])
  })
})

describe('passwordPatterns', () => {
  it('tags seasons with years, the company, keyboard walks, words with digits and the username', () => {
    expect(passwordPatterns('Summer2024!', context)).toContain('season_year')
    expect(passwordPatterns('Herbst25', context)).toContain('season_year')
    expect(passwordPatterns('Acm3@2025', context)).toContain('company_name')
    expect(passwordPatterns('Roadrunner!1', context)).toContain('company_name')
    expect(passwordPatterns('qwerty123', context)).toContain('keyboard_walk')
    expect(passwordPatterns('1qaz2wsx', context)).toContain('keyboard_walk')
    expect(passwordPatterns('Password1', context)).toEqual(['word_digits'])
    expect(passwordPatterns('j.smith2024', context)).toContain('username')
    expect(passwordPatterns('correct horse battery staple', context)).toEqual([])
    expect(passwordPatterns('Tr0ub4dor&3', context)).toEqual([])
  })
})

describe('describePassword', () => {
  it('reports the length and classes', () => {
    expect(describePassword('Summer2024!', context)).toEqual({
      masked: 'S*****4!',
      length: 11,
      classes: ['lower', 'upper', 'digit', 'symbol'],
      patterns: ['season_year', 'word_digits'],
    })
  })

  it('never returns the plaintext, whole or in part beyond the masked characters', () => {
    for (const password of SAMPLES) {
      const output = JSON.stringify(describePassword(password, context))
      expect(output, password).not.toContain(password)
      expect(output.toLowerCase(), password).not.toContain(password.toLowerCase())
      const described = describePassword(password, context)
      // The masked form keeps at most two characters in a row; the rest comes from fixed vocabularies.
      for (let start = 0; start + 3 <= password.length; start++)
        expect(described.masked, password).not.toContain(password.slice(start, start + 3))
      expect(CHARACTER_CLASSES).toEqual(expect.arrayContaining(described.classes))
      expect(PASSWORD_PATTERNS).toEqual(expect.arrayContaining(described.patterns))
      expect(Object.keys(described).sort()).toEqual(['classes', 'length', 'masked', 'patterns'])
    }
  })
})
