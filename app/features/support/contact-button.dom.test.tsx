// @vitest-environment happy-dom
// A page's own way to reach the team: its button opens the support dialog with the message it names.
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { ContactButton } from './contact-button'

afterEach(cleanup)

describe('ContactButton', () => {
  it('opens the support dialog with the message the page starts it with', async () => {
    const user = userEvent.setup()
    const message = 'I signed in as newcomer@initech.example and see none of Initech’s reports.'
    render(<ContactButton asButton label="Ask for access" startWith={{ request_type: 'question', message }} />)
    await user.click(await screen.findByRole('button', { name: 'Ask for access' }))
    const dialog = await screen.findByRole('dialog', { name: 'Contact support' })
    expect(dialog).toBeVisible()
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue(message)
  })

  it('opens an empty message from the footer', async () => {
    const user = userEvent.setup()
    render(<ContactButton />)
    await user.click(await screen.findByRole('button', { name: 'Contact' }))
    await screen.findByRole('dialog', { name: 'Contact support' })
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('')
  })
})
