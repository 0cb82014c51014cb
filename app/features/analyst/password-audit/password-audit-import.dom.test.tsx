// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { ParsedScan } from '#domain/scan-import/parsed-scan.ts'
import { splitAccountNames } from './audit-files'
import { PasswordAuditImport } from './password-audit-import'

afterEach(cleanup)

// happy-dom gives modules an http URL: the fixtures are found from the project's root.
const fixture = (name: string) => readFileSync(join(process.cwd(), 'tests/fixtures/scans/ntds_potfile', name), 'utf8')
// Names that say nothing: the role comes from the content.
const files = () => [
  new File([fixture('acme.ntds')], 'one.txt'),
  new File([fixture('hashcat.potfile')], 'two.txt'),
  new File([fixture('john.pot')], 'three.txt'),
  new File(['<html></html>'], 'four.txt'),
]

function setup() {
  const results: ParsedScan[] = []
  const user = userEvent.setup()
  render(
    <PasswordAuditImport
      companyNames={['Acme']}
      defaultPolicyMinLength={8}
      getReuseKey={async () => new Uint8Array(32).fill(7)}
      onResult={(scan) => results.push(scan)}
    />,
  )
  return { user, results }
}

describe('PasswordAuditImport in the browser', () => {
  it('says that clear-text passwords never leave the browser', () => {
    setup()
    expect(screen.getByText(/Clear-text passwords never leave this browser/)).toBeInTheDocument()
  })

  it('recognises the files by content, derives the audit and hands on only the reviewed result', async () => {
    const { user, results } = setup()
    const analyse = screen.getByRole('button', { name: 'Analyse in this browser' })
    expect(analyse).toBeDisabled()
    await user.upload(screen.getByLabelText('Choose files'), files())
    const list = await screen.findByRole('list', { name: 'Files' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.replace(/Remove.*$/, '').trim()),
    ).toEqual([
      'one.txt: NTDS dump (secretsdump)',
      'two.txt: Pot file (hashcat or John the Ripper)',
      'three.txt: Pot file (hashcat or John the Ripper)',
      'four.txt: Not recognised',
    ])
    await user.type(screen.getByLabelText('Privileged accounts'), 'ACME\\bwayne{Enter}Administrator')
    await user.clear(screen.getByLabelText('Policy minimum length'))
    await user.type(screen.getByLabelText('Policy minimum length'), '10')
    await user.click(analyse)

    const summary = await screen.findByLabelText('Audit summary')
    const figure = (label: string) => within(summary).getByText(label).nextElementSibling?.textContent
    expect(figure('Accounts audited')).toBe('14')
    expect(figure('Cracked')).toBe('10 (71 %)')
    expect(figure('Privileged accounts cracked')).toBe('2')
    expect(figure('Below 10 characters')).toBe('6')
    expect(results).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Use this audit' }))
    expect(results).toHaveLength(1)
    expect(results[0]!.serviceStats).toMatchObject({ service: 'password_cracking', cracked: 10, privilegedCracked: 2, policyMinLength: 10 })
    expect(JSON.stringify(results[0])).not.toContain('Winter2024!')
  })

  it('flags a pot file of another audit by name, and none when every pot file matches', async () => {
    const { user } = setup()
    const stranger = new File(['0123456789abcdef0123456789abcdef:Harbour-Lantern-77\n'], 'other-client.pot')
    await user.upload(screen.getByLabelText('Choose files'), [...files().slice(0, 2), stranger])
    await screen.findByText(/other-client\.pot: Pot file/)
    await user.click(screen.getByRole('button', { name: 'Analyse in this browser' }))
    await screen.findByLabelText('Audit summary')
    expect(screen.getByRole('status')).toHaveTextContent('One pot file cracks none of this dump’s hashes: is it from another audit?')
    expect(screen.getByText(/^other-client\.pot: none of its 1 cracked hashes is in the dump/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: /Remove other-client\.pot/ }))
    await user.click(screen.getByRole('button', { name: 'Analyse in this browser' }))
    await screen.findByLabelText('Audit summary')
    expect(screen.queryByText(/cracks none of this dump’s hashes/)).not.toBeInTheDocument()
  })

  it('shows why a dump it cannot read was refused', async () => {
    const { user } = setup()
    const broken = `${fixture('acme.ntds').split('\n').slice(0, 9).join('\n')}\n${'x'.repeat(1_100_000)}`
    await user.upload(screen.getByLabelText('Choose files'), [new File([broken], 'dump.txt')])
    await screen.findByText(/NTDS dump/)
    await user.click(screen.getByRole('button', { name: 'Analyse in this browser' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('secretsdump NTDS, line 10: longer than 1048576 characters')
  })
})

describe('splitAccountNames', () => {
  it('reads lists pasted one a line, with commas, or from net group', () => {
    expect(splitAccountNames('ACME\\a\r\nb, c;d\n')).toEqual(['ACME\\a', 'b', 'c', 'd'])
    expect(splitAccountNames('Administrator            bwayne                   svc_sql\n-------------\n')).toEqual([
      'Administrator',
      'bwayne',
      'svc_sql',
    ])
  })
})
