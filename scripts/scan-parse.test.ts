// The CLI as analysts run it: a whole normalised result on stdout (even when piped), a clear
// error and a failing exit for a file no parser reads.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { fixtureNames } from '../tests/support/scan-fixtures.ts'

const run = promisify(execFile)
const cli = (...args: string[]) =>
  run(process.execPath, ['--experimental-strip-types', 'scripts/scan-parse.ts', ...args], { maxBuffer: 64 * 1024 * 1024 })

describe('npm run scan:parse', () => {
  it('prints the whole result of a file, recognised by its content', async () => {
    const { stdout } = await cli('tests/fixtures/scans/zap_xml/dvwa_baseline_dojo.xml')
    const result = JSON.parse(stdout)
    expect(result).toMatchObject({ format: 'zap_xml', tool: { name: 'ZAP' } })
    expect(result.findings).toHaveLength(98)
  })

  it('recognises every sample of the Qualys, Nexpose, sslyze, kube-bench, PingCastle, Acunetix, ScoutSuite, kube-hunter, Arachni and Wapiti XML formats', async () => {
    const formats = [
      'qualys_xml',
      'nexpose_xml',
      'sslyze_json',
      'kube_bench_json',
      'pingcastle_xml',
      'acunetix_xml',
      'scoutsuite_js',
      'kube_hunter_json',
      'arachni_json',
      'wapiti_xml',
    ]
    const samples = formats.flatMap((format) =>
      fixtureNames(format).map((name) => ({ format, path: `tests/fixtures/scans/${format}/${name}` })),
    )
    expect(samples.length).toBeGreaterThan(35)
    for (let i = 0; i < samples.length; i += 8) {
      const batch = samples.slice(i, i + 8)
      const results = await Promise.all(batch.map(({ path }) => cli(path).then(({ stdout }) => JSON.parse(stdout).format as string)))
      expect(results, batch.map((s) => s.path).join(', ')).toEqual(batch.map((s) => s.format))
    }
  }, 120_000)

  it('says which formats it reads when a file is none of them, and fails', async () => {
    await expect(cli('README.md')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('not a format the product reads (Nmap XML'),
    })
  })

  it('derives a password audit without a password or hash in its output', async () => {
    const { stdout } = await cli(
      'tests/fixtures/scans/ntds_potfile/acme.ntds',
      '--pot',
      'tests/fixtures/scans/ntds_potfile/hashcat.potfile',
    )
    expect(JSON.parse(stdout).format).toBe('ntds_potfile')
    expect(stdout).not.toContain('Winter2024!')
    expect(stdout).not.toContain('7209d1e2b55d242551d2e7aba8604e47')
  })
})
