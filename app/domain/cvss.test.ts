import { describe, expect, it } from 'vitest'
import { type CvssSeverity, buildVector, cvssBaseMetrics, cvssSeverity, parseCvssVector, selectionScore } from './cvss.ts'

type Reference = readonly [source: string, vector: string, score: number, severity: CvssSeverity]

// FIRST, "CVSS v3.1: Examples" (first.org/cvss/v3-1/examples): each CVE's published base vector and
// score. Every score was also recomputed from the formulas of the v3.1 specification, section 7.
const v31References: readonly Reference[] = [
  ['CVE-2013-1937 phpMyAdmin reflected XSS', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1, 'medium'],
  ['CVE-2013-0375 MySQL stored SQL injection', 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N', 6.4, 'medium'],
  ['CVE-2014-3566 SSLv3 POODLE', 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N', 3.1, 'low'],
  ['CVE-2012-1516 VMware guest to host escape', 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H', 9.9, 'critical'],
  ['CVE-2009-0783 Apache Tomcat XML parser', 'CVSS:3.1/AV:L/AC:L/PR:H/UI:N/S:U/C:L/I:L/A:L', 4.2, 'medium'],
  ['CVE-2012-0384 Cisco IOS command execution', 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H', 8.8, 'high'],
  ['CVE-2015-1098 Apple iWork denial of service', 'CVSS:3.1/AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', 7.8, 'high'],
  ['CVE-2014-0160 OpenSSL Heartbleed', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', 7.5, 'high'],
  ['CVE-2014-6271 GNU Bash Shellshock', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8, 'critical'],
  ['CVE-2008-1447 DNS Kaminsky bug', 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:C/C:N/I:H/A:N', 6.8, 'medium'],
  ['CVE-2014-2005 Sophos login screen bypass', 'CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 6.8, 'medium'],
  ['CVE-2010-0467 Joomla directory traversal', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:L/I:N/A:N', 5.8, 'medium'],
  ['CVE-2012-1342 Cisco access control bypass', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:L/A:N', 5.8, 'medium'],
  ['CVE-2013-6014 Juniper proxy ARP denial of service', 'CVSS:3.1/AV:A/AC:L/PR:N/UI:N/S:C/C:H/I:N/A:H', 9.3, 'critical'],
  ['CVE-2014-9253 DokuWiki reflected XSS', 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N', 5.4, 'medium'],
  ['CVE-2011-1265 Windows Bluetooth remote code execution', 'CVSS:3.1/AV:A/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 8.8, 'high'],
  ['CVE-2014-2019 Apple iOS security control bypass', 'CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N', 4.6, 'medium'],
  ['CVE-2015-0970 SearchBlox CSRF', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', 8.8, 'high'],
  ['CVE-2014-0224 OpenSSL CCS injection', 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N', 7.4, 'high'],
  ['CVE-2016-0128 Badlock (SAMR/LSAD downgrade)', 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:H/A:N', 6.8, 'medium'],
  ['CVE-2018-3652 Intel Xeon debug interface', 'CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 7.6, 'high'],
  ['CVE-2019-7551 Cantemo Portal stored XSS', 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:H/I:H/A:H', 9.0, 'critical'],
  ['CVE-2021-44228 Log4Shell (NVD)', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 10.0, 'critical'],
  ['no impact at all', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 0.0, 'none'],
]

// CVSS 4.0 scores as FIRST's calculator (first.org/cvss/calculator/4-0) gives them. Those marked
// "Red Hat" are from the reference vectors of RedHatProductSecurity/cvss (tests/vectors_simple4),
// the implementation FIRST's lookup tables were generated with.
const v40References: readonly Reference[] = [
  [
    'network, no privileges, high vulnerable-system impact',
    'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N',
    9.3,
    'critical',
  ],
  ['high impact on both systems', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:H/SA:H', 10.0, 'critical'],
  ['low impacts over the network', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:L/VA:L/SC:N/SI:N/SA:N', 6.9, 'medium'],
  ['low privileges, low integrity impact', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N', 5.3, 'medium'],
  ['local, low privileges', 'CVSS:4.0/AV:L/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 8.5, 'high'],
  ['local, attack requirements present', 'CVSS:4.0/AV:L/AC:L/AT:P/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 7.3, 'high'],
  ['passive interaction, subsequent-system impact', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:P/VC:N/VI:N/VA:N/SC:L/SI:L/SA:N', 5.3, 'medium'],
  ['no impact at all', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', 0.0, 'none'],
  ['adjacent, high complexity', 'CVSS:4.0/AV:A/AC:H/AT:N/PR:L/UI:P/VC:L/VI:H/VA:L/SC:N/SI:N/SA:N', 4.4, 'medium'],
  ['local, everything against the attacker', 'CVSS:4.0/AV:L/AC:H/AT:P/PR:H/UI:A/VC:L/VI:L/VA:N/SC:N/SI:N/SA:N', 1.0, 'low'],
  ['low privileges, mixed impacts', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:L/VA:L/SC:H/SI:L/SA:L', 8.5, 'high'],
  ['low privileges, low impacts everywhere', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:L/VI:L/VA:L/SC:L/SI:L/SA:L', 5.3, 'medium'],
  ['subsequent-system confidentiality', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:H/SI:N/SA:L', 9.9, 'critical'],
  ['Red Hat: attack requirements, active interaction', 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:A/VC:N/VI:N/VA:N/SC:L/SI:N/SA:N', 2.1, 'low'],
  ['Red Hat: high privileges, subsequent integrity', 'CVSS:4.0/AV:N/AC:H/AT:N/PR:H/UI:A/VC:N/VI:N/VA:N/SC:N/SI:H/SA:N', 4.0, 'medium'],
  ['Red Hat: attack requirements, high impacts', 'CVSS:4.0/AV:N/AC:L/AT:P/PR:N/UI:N/VC:H/VI:H/VA:H/SC:H/SI:N/SA:H', 9.5, 'critical'],
  ['Red Hat: high privileges, passive interaction', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:H/UI:P/VC:L/VI:L/VA:N/SC:L/SI:N/SA:N', 4.8, 'medium'],
  ['Red Hat: low impacts behind requirements', 'CVSS:4.0/AV:N/AC:L/AT:P/PR:H/UI:A/VC:N/VI:L/VA:L/SC:L/SI:N/SA:N', 1.8, 'low'],
  ['Red Hat: active interaction, high impacts', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:A/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 8.6, 'high'],
  ['Red Hat: high complexity, high subsequent impacts', 'CVSS:4.0/AV:N/AC:H/AT:N/PR:L/UI:A/VC:L/VI:L/VA:L/SC:H/SI:H/SA:H', 5.2, 'medium'],
  ['Red Hat: physical access', 'CVSS:4.0/AV:P/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:L/SC:N/SI:N/SA:N', 6.9, 'medium'],
  ['Red Hat: physical access, passive interaction', 'CVSS:4.0/AV:P/AC:L/AT:N/PR:N/UI:P/VC:H/VI:H/VA:L/SC:L/SI:H/SA:H', 8.5, 'high'],
  ['Red Hat: physical access, low subsequent impacts', 'CVSS:4.0/AV:P/AC:L/AT:P/PR:L/UI:P/VC:N/VI:N/VA:N/SC:L/SI:N/SA:L', 1.0, 'low'],
  ['threat: unreported exploit', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U', 8.1, 'high'],
  ['threat: proof of concept', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:P', 8.9, 'high'],
  ['threat: unreported, adjacent', 'CVSS:4.0/AV:A/AC:H/AT:N/PR:L/UI:P/VC:L/VI:H/VA:L/SC:N/SI:N/SA:N/E:U', 0.7, 'low'],
  ['environmental requirements', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/CR:H/IR:H/AR:L', 9.3, 'critical'],
]

describe('parseCvssVector: published scores', () => {
  it.each([
    ['3.1', v31References],
    ['4.0', v40References],
  ] as const)('has at least 20 CVSS %s references', (_version, references) => {
    expect(references.length).toBeGreaterThanOrEqual(20)
  })

  it.each(v31References)('CVSS 3.1, %s: %s scores %d (%s)', (_source, vector, score, severity) => {
    expect(parseCvssVector(vector)).toMatchObject({ ok: true, version: '3.1', vector, score, severity })
  })

  it.each(v40References)('CVSS 4.0, %s: %s scores %d (%s)', (_source, vector, score, severity) => {
    expect(parseCvssVector(vector)).toMatchObject({ ok: true, version: '4.0', vector, score, severity })
  })

  it('scores 3.1 temporal metrics: NVD vector of CVE-2020-5934, roundup(9.9 × 0.97 × 1 × 0.96) = 9.3', () => {
    expect(parseCvssVector('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:L/A:H/E:F/RL:U/RC:R')).toMatchObject({ ok: true, score: 9.3 })
    expect(parseCvssVector('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:L/A:H')).toMatchObject({ ok: true, score: 9.9 })
  })
})

describe('parseCvssVector: normalising pasted text', () => {
  it('ignores surrounding whitespace and puts metrics in the specification order', () => {
    expect(parseCvssVector('  \n CVSS:3.1/C:H/AV:N/AC:L/PR:N/UI:N/S:U/I:H/A:H\t')).toEqual({
      ok: true,
      version: '3.1',
      vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      metrics: { AV: 'N', AC: 'L', PR: 'N', UI: 'N', S: 'U', C: 'H', I: 'H', A: 'H' },
      score: 9.8,
      severity: 'critical',
    })
  })

  it('leaves out "Not Defined" metrics and keeps defined optional ones in order', () => {
    const result = parseCvssVector('CVSS:4.0/E:U/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/CR:X/MSI:S/U:Red')
    expect(result).toMatchObject({
      ok: true,
      vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U/MSI:S/U:Red',
      metrics: { E: 'U', MSI: 'S', U: 'Red' },
    })
    expect(result.ok && 'CR' in result.metrics).toBe(false)
  })
})

describe('parseCvssVector: what is wrong with a vector', () => {
  const base31 = 'AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'
  it.each([
    ['an empty text', '', 'Enter a CVSS vector, such as CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['blank text', ' \n\t ', 'Enter a CVSS vector, such as CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'],
    ['a vector without a version', base31, 'A CVSS vector starts with CVSS:3.1/ or CVSS:4.0/'],
    ['a lowercase prefix', `cvss:3.1/${base31}`, 'A CVSS vector starts with CVSS:3.1/ or CVSS:4.0/'],
    ['CVSS 3.0', `CVSS:3.0/${base31}`, 'CVSS 3.0 is not supported: use a CVSS 3.1 or 4.0 vector'],
    ['CVSS 2.0', 'CVSS:2.0/AV:N/AC:L/Au:N/C:P/I:P/A:P', 'CVSS 2.0 is not supported: use a CVSS 3.1 or 4.0 vector'],
    ['an unknown metric', `CVSS:3.1/${base31}/XX:Y`, 'CVSS 3.1 has no metric "XX"'],
    ['a 4.0 metric in a 3.1 vector', `CVSS:3.1/${base31}/AT:N`, 'CVSS 3.1 has no metric "AT"'],
    ['an invalid value', 'CVSS:3.1/AV:Z/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '"Z" is not a value of AV (Attack Vector): use N, A, L or P'],
    [
      '"Not Defined" for a base metric',
      'CVSS:3.1/AV:N/AC:X/PR:N/UI:N/S:U/C:H/I:H/A:H',
      '"X" is not a value of AC (Attack Complexity): use L or H',
    ],
    ['an invalid optional value', `CVSS:3.1/${base31}/E:Q`, '"Q" is not a value of E (Exploit Code Maturity): use U, P, F, H or X'],
    [
      'safety on a base subsequent-system metric',
      'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:S/SA:N',
      '"S" is not a value of SI (Integrity): use H, L or N',
    ],
    [
      'missing base metrics',
      'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/C:H',
      'Missing base metrics: S (Scope), I (Integrity Impact), A (Availability Impact)',
    ],
    [
      'a prefix alone',
      'CVSS:4.0',
      'Missing base metrics: AV (Attack Vector), AC (Attack Complexity), AT (Attack Requirements), PR (Privileges Required), UI (User Interaction), VC (Confidentiality), VI (Integrity), VA (Availability), SC (Confidentiality), SI (Integrity), SA (Availability)',
    ],
    ['a duplicated metric', `CVSS:3.1/${base31}/AV:L`, 'Metric AV (Attack Vector) appears more than once'],
    ['a duplicated metric with the same value', `CVSS:3.1/AV:N/${base31}`, 'Metric AV (Attack Vector) appears more than once'],
    ['a part without a colon', 'CVSS:3.1/AVN/AC:L', '"AVN" is not a metric: write each metric as KEY:VALUE, such as AV:N'],
    ['a trailing slash', `CVSS:3.1/${base31}/`, 'The vector has an empty metric: remove the extra "/"'],
    ['a lowercase value', 'CVSS:3.1/AV:n/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', '"n" is not a value of AV (Attack Vector): use N, A, L or P'],
  ])('refuses %s', (_label, text, error) => {
    expect(parseCvssVector(text)).toEqual({ ok: false, error })
  })
})

describe('cvssSeverity: the specification ranges', () => {
  it.each([
    [0, 'none'],
    [0.1, 'low'],
    [3.9, 'low'],
    [4.0, 'medium'],
    [6.9, 'medium'],
    [7.0, 'high'],
    [8.9, 'high'],
    [9.0, 'critical'],
    [10, 'critical'],
  ] as const)('%d is %s', (score, severity) => {
    expect(cvssSeverity(score)).toBe(severity)
  })
})

describe('cvssBaseMetrics: what the vector builder offers', () => {
  const keysOf = (version: '3.1' | '4.0') => cvssBaseMetrics[version].map((metric) => metric.key)
  const valuesOf = (version: '3.1' | '4.0', key: string) =>
    cvssBaseMetrics[version].find((metric) => metric.key === key)?.values.map((value) => value.key)

  it('lists the base metrics of each version in the specification order', () => {
    expect(keysOf('3.1')).toEqual(['AV', 'AC', 'PR', 'UI', 'S', 'C', 'I', 'A'])
    expect(keysOf('4.0')).toEqual(['AV', 'AC', 'AT', 'PR', 'UI', 'VC', 'VI', 'VA', 'SC', 'SI', 'SA'])
  })

  it('offers each metric its values and no "Not Defined"', () => {
    expect(valuesOf('3.1', 'AV')).toEqual(['N', 'A', 'L', 'P'])
    expect(valuesOf('3.1', 'S')).toEqual(['U', 'C'])
    expect(valuesOf('4.0', 'UI')).toEqual(['N', 'P', 'A'])
    expect(valuesOf('4.0', 'SI')).toEqual(['H', 'L', 'N'])
  })

  it('names every metric, group and value for people', () => {
    const labels = Object.values(cvssBaseMetrics).flatMap((metrics) =>
      metrics.flatMap((metric) => [metric.name, metric.group, ...metric.values.map((value) => value.label)]),
    )
    expect(labels.every((label) => label.trim().length > 1)).toBe(true)
    expect(cvssBaseMetrics['3.1'][0]).toMatchObject({
      key: 'AV',
      name: 'Attack Vector',
      values: expect.arrayContaining([{ key: 'N', label: 'Network' }]),
    })
    expect(cvssBaseMetrics['4.0'].find((metric) => metric.key === 'SC')?.group).toBe('Subsequent System Impact')
  })
})

describe('buildVector and selectionScore', () => {
  const selections = { AV: 'N', AC: 'L', PR: 'N', UI: 'R', S: 'C', C: 'L', I: 'L' }

  it('builds the vector of a partial selection in the specification order, with no score yet', () => {
    expect(buildVector('3.1', { C: 'L', AV: 'N' })).toBe('CVSS:3.1/AV:N/C:L')
    expect(buildVector('4.0', {})).toBe('CVSS:4.0')
    expect(selectionScore('3.1', selections)).toBeNull()
    expect(selectionScore('3.1', { ...selections, A: undefined })).toBeNull()
  })

  it('scores the selection once every base metric is chosen', () => {
    const complete = { ...selections, A: 'N' }
    expect(buildVector('3.1', complete)).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N')
    expect(selectionScore('3.1', complete)).toBe(6.1)
  })

  it('keeps optional metrics chosen elsewhere and scores them', () => {
    const parsed = parseCvssVector('CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N/E:U')
    if (!parsed.ok) throw new Error(parsed.error)
    expect(selectionScore('4.0', parsed.metrics)).toBe(8.1)
    expect(selectionScore('4.0', { ...parsed.metrics, E: 'X' })).toBe(9.3)
  })

  it.each([...v31References.map(([, vector]) => vector), ...v40References.map(([, vector]) => vector)])(
    'rebuilds %s from its metrics',
    (vector) => {
      const parsed = parseCvssVector(vector)
      if (!parsed.ok) throw new Error(parsed.error)
      expect(buildVector(parsed.version, parsed.metrics)).toBe(vector)
      expect(selectionScore(parsed.version, parsed.metrics)).toBe(parsed.score)
    },
  )

  it('treats a metric or value the version does not have as a programming error', () => {
    expect(() => buildVector('3.1', { AT: 'N' })).toThrow(RangeError)
    expect(() => buildVector('3.1', { AV: 'Z' })).toThrow('CVSS 3.1 has no value AV:Z')
    expect(() => buildVector('4.0', { AV: 'X' })).toThrow(RangeError)
  })
})
