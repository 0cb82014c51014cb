import { describe, expect, it } from 'vitest'
import { cvssBaseMetrics, parseCvssVector } from '#domain/cvss.ts'
import { chooseMetric, convertVector, cvssProblem, cvssRecord, sameVector, selectionsOf, versionOfVector } from './cvss-editing'

const SHELLSHOCK = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'
const V40_CRITICAL = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N'

describe('the version of a vector', () => {
  it('is read from the prefix, also of an incomplete vector', () => {
    expect(versionOfVector(SHELLSHOCK)).toBe('3.1')
    expect(versionOfVector('  CVSS:4.0/AV:N')).toBe('4.0')
    expect(versionOfVector('CVSS:4.0')).toBe('4.0')
  })

  it('is unknown for blank text, other versions and other text', () => {
    expect(versionOfVector('')).toBeNull()
    expect(versionOfVector('CVSS:3.0/AV:N')).toBeNull()
    expect(versionOfVector('AV:N/AC:L')).toBeNull()
  })
})

describe('the builder choices of a vector', () => {
  it('are every metric of a valid vector, temporal ones included', () => {
    expect(selectionsOf(`${SHELLSHOCK}/E:P`, '3.1')).toEqual({ AV: 'N', AC: 'L', PR: 'N', UI: 'N', S: 'U', C: 'H', I: 'H', A: 'H', E: 'P' })
  })

  it('are the well-formed base metrics of an incomplete or invalid vector', () => {
    expect(selectionsOf('CVSS:3.1/AV:N/AC:Q/PR/UI:R', '3.1')).toEqual({ AV: 'N', UI: 'R' })
  })

  it('are none for text of another version or none', () => {
    expect(selectionsOf(SHELLSHOCK, '4.0')).toEqual({})
    expect(selectionsOf('', '3.1')).toEqual({})
  })
})

describe('choosing a metric in the builder', () => {
  it('starts a vector from nothing', () => {
    expect(chooseMetric('', '3.1', 'AV', 'N')).toBe('CVSS:3.1/AV:N')
  })

  it('writes the metrics in the specification order whatever the order they are chosen in', () => {
    let text = ''
    for (const metric of [...cvssBaseMetrics['3.1']].reverse()) text = chooseMetric(text, '3.1', metric.key, metric.values[0]!.key)
    expect(text).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N')
    expect(parseCvssVector(text).ok).toBe(true)
  })

  it('replaces the chosen metric and keeps the others, temporal ones included', () => {
    expect(chooseMetric(`${SHELLSHOCK}/E:P`, '3.1', 'C', 'L')).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:H/A:H/E:P')
  })

  it('rebuilds an invalid vector from its well-formed metrics', () => {
    expect(chooseMetric('CVSS:3.1/AV:N/junk', '3.1', 'AC', 'H')).toBe('CVSS:3.1/AV:N/AC:H')
  })
})

describe('switching version', () => {
  it('carries over the base metrics both versions have with the same value', () => {
    // Impacts and scope carry over too; only 4.0's attack requirements are left to choose.
    expect(convertVector(SHELLSHOCK, '4.0')).toBe('CVSS:4.0/AV:N/AC:L/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N')
    expect(convertVector('CVSS:3.1/AV:L/AC:H/PR:L/UI:R/S:C/C:H/I:L/A:N', '4.0')).toBe(
      'CVSS:4.0/AV:L/AC:H/PR:L/UI:P/VC:H/VI:L/VA:N/SC:H/SI:L/SA:N',
    )
    expect(convertVector(V40_CRITICAL, '3.1')).toBe(SHELLSHOCK)
    expect(convertVector('CVSS:4.0/AV:A/AC:L/AT:P/PR:H/UI:A/VC:L/VI:N/VA:N/SC:L/SI:N/SA:N', '3.1')).toBe(
      'CVSS:3.1/AV:A/AC:L/PR:H/UI:R/S:C/C:L/I:N/A:N',
    )
  })

  it('leaves text of the same version or of none as it is', () => {
    expect(convertVector(SHELLSHOCK, '3.1')).toBe(SHELLSHOCK)
    expect(convertVector('', '4.0')).toBe('')
    expect(convertVector('not a vector', '4.0')).toBe('not a vector')
  })
})

describe('comparing field values', () => {
  it('takes a vector in another order, with spaces or with Not Defined metrics as the saved one', () => {
    expect(sameVector('CVSS:3.1/C:H/I:H/A:H/AV:N/AC:L/PR:N/UI:N/S:U', SHELLSHOCK)).toBe(true)
    expect(sameVector(` ${SHELLSHOCK}/E:X `, SHELLSHOCK)).toBe(true)
    expect(sameVector('  ', '')).toBe(true)
  })

  it('tells different vectors and invalid text apart', () => {
    expect(sameVector(SHELLSHOCK, SHELLSHOCK.replace('A:H', 'A:L'))).toBe(false)
    expect(sameVector('CVSS:3.1/AV:N', 'CVSS:3.1/AV:N ')).toBe(false)
    expect(sameVector('', SHELLSHOCK)).toBe(false)
  })
})

describe('what the field saves', () => {
  it('saves a valid vector normalised, with its version and score', () => {
    expect(cvssProblem(SHELLSHOCK)).toBeNull()
    expect(cvssRecord(`CVSS:3.1/C:H/I:H/A:H/AV:N/AC:L/PR:N/UI:N/S:U/E:X`)).toEqual({ version: '3.1', vector: SHELLSHOCK, score: 9.8 })
    expect(cvssRecord(V40_CRITICAL)).toEqual({ version: '4.0', vector: V40_CRITICAL, score: 9.3 })
  })

  it('clears the vector when the field is blank', () => {
    expect(cvssProblem(' ')).toBeNull()
    expect(cvssRecord(' ')).toBeNull()
  })

  it('refuses an invalid vector with the parser’s reason', () => {
    expect(cvssProblem('CVSS:3.1/AV:N')).toBe(
      'Missing base metrics: AC (Attack Complexity), PR (Privileges Required), UI (User Interaction), S (Scope), C (Confidentiality Impact), I (Integrity Impact), A (Availability Impact)',
    )
    expect(cvssProblem('CVSS:2.0/AV:N')).toBe('CVSS 2.0 is not supported: use a CVSS 3.1 or 4.0 vector')
    expect(() => cvssRecord('CVSS:3.1/AV:N')).toThrow()
  })
})
