// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { peopleMessages, type PersonRow } from '#domain/admin-people-calls.ts'
import { companyFromDocument } from '#domain/companies.ts'
import { companyDocument } from '../../../../tests/builders'
import { PersonDialog } from './person-dialog'

afterEach(cleanup)

const row = (inOtherCompanies: boolean): PersonRow => ({
  uid: 'mario',
  email: 'manager@acme.example',
  displayName: null,
  disabled: false,
  createdAt: null,
  lastSignInAt: null,
  userType: 'client',
  accessLevel: 2,
  companies: ['acme'],
  servicesEnabled: [],
  servicesManaged: [],
  inOtherCompanies,
  removed: false,
})

function open(person: PersonRow) {
  render(
    <PersonDialog
      open
      onOpenChange={() => {}}
      person={person}
      actor={{ accessLevel: 3, userType: 'client' }}
      companies={['acme', 'umbrella'].flatMap((slug) => companyFromDocument(slug, companyDocument(slug)) ?? [])}
      defaultCompany="acme"
      onDone={() => {}}
    />,
  )
  const dialog = screen.getByRole('dialog', { name: 'Change manager@acme.example' })
  return {
    level: within(dialog).getByRole('combobox', { name: 'Level' }),
    services: within(within(dialog).getByRole('group', { name: 'Services enabled' })).getAllByRole('checkbox'),
    companies: within(within(dialog).getByRole('group', { name: 'Companies' })).getAllByRole('checkbox'),
    dialog,
  }
}

describe('the change dialog of someone who also works for companies the admin does not administer', () => {
  it('offers their companies only, and says why the level and services stay', () => {
    const { level, services, companies, dialog } = open(row(true))
    expect(level).toBeDisabled()
    expect(level).toHaveAccessibleDescription(`${peopleMessages.otherCompanies}.`)
    expect(services.every((box) => (box as HTMLInputElement).disabled)).toBe(true)
    expect(companies.every((box) => !(box as HTMLInputElement).disabled)).toBe(true)
    expect(within(dialog).getByText(`${peopleMessages.otherCompanies}.`)).toBeVisible()
  })

  it('offers everything the admin may give for someone of their companies only', () => {
    const { level, services } = open(row(false))
    expect(level).toBeEnabled()
    expect(services.some((box) => !(box as HTMLInputElement).disabled)).toBe(true)
    expect(screen.queryByText(`${peopleMessages.otherCompanies}.`)).toBeNull()
  })
})
