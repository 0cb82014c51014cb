// The table of formats in docs/scan-imports.md names every format the importers read, with the services whose
// pages take it, and the README's table names each service's formats, so neither can fall behind the registry.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { serviceById, services } from '../services.ts'
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

describe("the README's table of formats by service", () => {
  const readmeRows = new Map(
    readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => /^\| [^|]+ \| [^|]+ \|$/.test(line))
      .map((line) => line.slice(2, -2).split(' | ') as [string, string]),
  )
  it.each(services.map((s) => [s.label, s.id] as const))('lists every format %s takes', (label, id) => {
    const listed = readmeRows.get(label)?.split(', ') ?? []
    const expected = SCAN_PARSERS.filter((p) => (p.services as readonly string[]).includes(id)).map((p) => p.label)
    expect(listed.sort()).toEqual(expected.sort())
  })
})
