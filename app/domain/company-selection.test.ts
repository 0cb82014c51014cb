import { describe, expect, it } from 'vitest'
import { selectCompany } from './company-selection.ts'

describe('selectCompany', () => {
  it.each([
    ['the list is not known yet', undefined, 'acme', undefined],
    ['the list is empty', [], 'acme', null],
    ['there is one company, whatever the default', ['initech'], 'acme', 'initech'],
    ['the default is in the list', ['acme', 'globex'], 'globex', 'globex'],
    ['there is no default', ['acme', 'globex'], null, 'acme'],
    ['the default is not in the list', ['acme', 'globex'], 'umbrella', 'acme'],
  ])('%s', (_, slugs, defaultCompany, expected) => {
    expect(selectCompany(slugs as string[] | undefined, defaultCompany)).toBe(expected)
  })
})
