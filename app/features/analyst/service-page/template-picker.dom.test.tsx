// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TemplateChoice } from '#domain/template-mappings.ts'
import { TEMPLATES_LISTED, TemplatePicker } from './template-picker'

afterEach(cleanup)

const template = (slug: string, title: string, services: string[], cwe: string[] = []): TemplateChoice => ({ slug, title, services, cwe })
const library: TemplateChoice[] = [
  template('cookie-no-secure', 'Cookie without the Secure flag', ['dast'], ['CWE-614']),
  template('cookie-no-httponly', 'Cookie without the HttpOnly flag', ['dast'], ['CWE-1004']),
  template('xss-reflected', 'Reflected cross-site scripting', ['dast'], ['CWE-79']),
  template('ssh-weak-ciphers', 'Weak SSH ciphers', ['network']),
  template('tls-old', 'Old TLS versions', ['network', 'projectmariana']),
  template('generic-note', 'Note for any service', []),
]

const optionNames = (listbox: HTMLElement) =>
  within(listbox)
    .queryAllByRole('option')
    .map((option) => option.firstChild?.textContent)

describe('TemplatePicker', () => {
  it("offers the service's templates, the finding's likely ones first, narrowed by each word typed", async () => {
    render(
      <TemplatePicker
        service="dast"
        templates={library}
        finding={{ title: 'Cookie Without Secure Flag', ruleId: '10011', cwe: ['CWE-614'] }}
        onPick={() => {}}
      />,
    )
    const box = screen.getByRole('combobox', { name: 'Template' })
    expect(box).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(box)
    expect(box).toHaveAttribute('aria-expanded', 'true')
    const listbox = screen.getByRole('listbox', { name: 'Templates' })
    expect(within(listbox).getByRole('group', { name: 'Suggested for this finding' })).toHaveTextContent('Cookie without the Secure flag')
    // Network templates are not offered for a DAST finding; a template for no service in particular is.
    expect(optionNames(listbox)).toEqual([
      'Cookie without the Secure flag',
      'Cookie without the HttpOnly flag',
      'Reflected cross-site scripting',
      'Note for any service',
      'No template (the scanner’s text)',
    ])

    await userEvent.type(box, 'cookie http')
    expect(optionNames(listbox)).toEqual(['Cookie without the HttpOnly flag', 'No template (the scanner’s text)'])
    expect(screen.getByText('1 template')).toBeInTheDocument()

    await userEvent.clear(box)
    await userEvent.type(box, 'ssh')
    expect(listbox.parentElement).toHaveTextContent('No DAST template matches: try every service.')
    await userEvent.click(screen.getByRole('checkbox', { name: 'Every service' }))
    await userEvent.click(box)
    expect(optionNames(screen.getByRole('listbox'))).toEqual(['Weak SSH ciphers', 'No template (the scanner’s text)'])
  })

  it('is worked with the keyboard: arrows move through the options, Enter picks, Escape closes', async () => {
    const onPick = vi.fn()
    render(<TemplatePicker service="network" templates={library} onPick={onPick} />)
    const box = screen.getByRole('combobox', { name: 'Template' })
    box.focus()
    await userEvent.keyboard('{ArrowDown}')
    expect(box).toHaveAttribute('aria-expanded', 'true')
    const first = screen.getByRole('option', { name: /Weak SSH ciphers/ })
    expect(box).toHaveAttribute('aria-activedescendant', first.id)
    expect(first).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{ArrowDown}')
    expect(screen.getByRole('option', { name: /Old TLS versions/ })).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{Enter}')
    expect(onPick).toHaveBeenCalledWith('tls-old')
    expect(box).toHaveAttribute('aria-expanded', 'false')
    expect(box).toHaveValue('')

    // Up from the top wraps to the last option: no template.
    await userEvent.keyboard('{ArrowUp}')
    expect(screen.getByRole('option', { name: 'No template (the scanner’s text)' })).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{Escape}')
    expect(box).toHaveAttribute('aria-expanded', 'false')
    expect(box).not.toHaveAttribute('aria-activedescendant')
    await userEvent.keyboard('{ArrowUp}{Enter}')
    expect(onPick).toHaveBeenLastCalledWith(null)
  })

  it('lists a bounded number of a large library and says how many more typing reaches', async () => {
    const many = Array.from({ length: 333 }, (_, i) => template(`t-${i}`, `Template ${String(i).padStart(3, '0')}`, ['cloud']))
    render(<TemplatePicker service="cloud" templates={many} onPick={() => {}} />)
    await userEvent.click(screen.getByRole('combobox', { name: 'Template' }))
    expect(screen.getAllByRole('option')).toHaveLength(TEMPLATES_LISTED + 1)
    expect(screen.getByText(`${333 - TEMPLATES_LISTED} more: type to narrow.`)).toBeInTheDocument()
    await userEvent.type(screen.getByRole('combobox'), '332')
    expect(optionNames(screen.getByRole('listbox'))).toEqual(['Template 332', 'No template (the scanner’s text)'])
  })

  it('cannot be opened while disabled (nothing selected)', async () => {
    render(<TemplatePicker service="dast" templates={library} disabled onPick={() => {}} />)
    expect(screen.getByRole('combobox', { name: 'Template' })).toBeDisabled()
  })
})
