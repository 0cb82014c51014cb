// The table of formats in docs/scan-imports.md names every format the importers read, with the services whose
// pages take it, so the table cannot fall behind the registry.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { serviceById } from '../services.ts'
import { SCAN_PARSERS } from './formats.ts'

const readme = readFileSync(new URL('../../../docs/scan-imports.md', import.meta.url), 'utf8')
const rows = readme
  .split('\n')
  .filter((line) => /^\| .+ \| .+ \| .+ \|$/.test(line) && !/^\|[-| ]+\|$/.test(line))
  .map((line) => line.slice(2, -2).split(' | '))

describe('the formats table of docs/scan-imports.md', () => {
  it.each(SCAN_PARSERS.map((p) => [p.label, p] as const))('lists %s with its services', (label, parser) => {
    const row = rows.find(([format]) => format?.startsWith(label))
    expect(row, label).toBeDefined()
    const services = (row?.[2] ?? '').split(', ').map((s) => s.toLowerCase())
    const expected = parser.services.map((id) => serviceById(id)?.label.toLowerCase())
    expect(services.sort()).toEqual(expected.sort())
  })
})
