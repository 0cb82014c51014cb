// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { TagInput } from './tag-input'
import type { TagSuggestion } from './tag-entry'

afterEach(cleanup)

const suggestions: TagSuggestion[] = [
  { tag: 'tls', count: 12 },
  { tag: 'tls-downgrade', count: 3 },
  { tag: 'xss', count: 40 },
  { tag: 'sql-injection', count: 7 },
]

/** The tag input over a template whose stored tags follow each add and remove, as the live document does. */
function Template({ initial, writes }: { initial: string[]; writes: string[] }) {
  const [saved, setSaved] = useState(initial)
  return (
    <TagInput
      saved={saved}
      suggestions={suggestions}
      onAdd={async (tag) => {
        writes.push(`add ${tag}`)
        setSaved((tags) => [...tags, tag])
      }}
      onRemove={async (tag) => {
        writes.push(`remove ${tag}`)
        setSaved((tags) => tags.filter((kept) => kept !== tag))
      }}
    />
  )
}

function setup(initial: string[] = ['xss']) {
  const writes: string[] = []
  const user = userEvent.setup()
  render(<Template initial={initial} writes={writes} />)
  const input = screen.getByRole('combobox', { name: 'Tags' })
  const chips = () => {
    const list = screen.queryByRole('list', { name: 'Chosen tags' })
    return list
      ? within(list)
          .getAllByRole('listitem')
          .map((chip) => chip.textContent)
      : []
  }
  return { user, input, writes, chips }
}

describe('TagInput in the browser', () => {
  it('adds the typed tag on Enter and saves it at once', async () => {
    const { user, input, writes, chips } = setup()
    await user.type(input, 'Open-Redirect{Enter}')
    expect(chips()).toEqual(['xss', 'open-redirect'])
    expect(input).toHaveProperty('value', '')
    await waitFor(() => expect(writes).toEqual(['add open-redirect']))
  })

  it('adds each tag before a comma, and keeps typing after it', async () => {
    const { user, input, writes, chips } = setup([])
    await user.type(input, 'csrf,clickjack')
    expect(chips()).toEqual(['csrf'])
    expect(input).toHaveProperty('value', 'clickjack')
    await waitFor(() => expect(writes).toEqual(['add csrf']))
  })

  it('removes the last tag with Backspace in the empty box, and a tag with its remove button', async () => {
    const { user, input, writes, chips } = setup(['xss', 'csrf', 'tls'])
    await user.click(input)
    await user.keyboard('{Backspace}')
    expect(chips()).toEqual(['xss', 'csrf'])
    await user.click(screen.getByRole('button', { name: 'Remove xss' }))
    expect(chips()).toEqual(['csrf'])
    expect(input).toHaveFocus()
    await waitFor(() => expect(writes).toEqual(['remove tls', 'remove xss']))
  })

  it('leaves the chips alone when Backspace deletes typed text', async () => {
    const { user, input, writes, chips } = setup(['xss'])
    await user.type(input, 'ab{Backspace}')
    expect(input).toHaveProperty('value', 'a')
    expect(chips()).toEqual(['xss'])
    expect(writes).toEqual([])
  })

  it('suggests matching tags not chosen yet; the arrows move through them and Enter chooses one', async () => {
    const { user, input, writes, chips } = setup(['xss'])
    await user.type(input, 'tl')
    const listbox = screen.getByRole('listbox', { name: 'Tag suggestions' })
    expect(input).toHaveAttribute('aria-expanded', 'true')
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['tls12', 'tls-downgrade3'])
    expect(screen.getByText('2 suggestions')).toHaveAttribute('role', 'status')

    await user.keyboard('{ArrowDown}')
    const [first, second] = within(listbox).getAllByRole('option')
    expect(first).toHaveAttribute('aria-selected', 'true')
    expect(input).toHaveAttribute('aria-activedescendant', first!.id)
    await user.keyboard('{ArrowDown}')
    expect(second).toHaveAttribute('aria-selected', 'true')
    expect(input).toHaveAttribute('aria-activedescendant', second!.id)
    await user.keyboard('{ArrowDown}')
    expect(first).toHaveAttribute('aria-selected', 'true')
    await user.keyboard('{ArrowUp}')
    expect(second).toHaveAttribute('aria-selected', 'true')

    await user.keyboard('{Enter}')
    expect(chips()).toEqual(['xss', 'tls-downgrade'])
    expect(input).toHaveProperty('value', '')
    expect(input).toHaveAttribute('aria-expanded', 'false')
    await waitFor(() => expect(writes).toEqual(['add tls-downgrade']))
  })

  it('closes the suggestions on Escape without choosing, and clears the text on a second Escape', async () => {
    const { user, input, chips } = setup(['xss'])
    await user.type(input, 'sql{ArrowDown}{Escape}')
    expect(input).toHaveAttribute('aria-expanded', 'false')
    expect(input).toHaveProperty('value', 'sql')
    await user.keyboard('{Escape}')
    expect(input).toHaveProperty('value', '')
    expect(chips()).toEqual(['xss'])
  })

  it('takes a tag already chosen only once', async () => {
    const { user, input, writes, chips } = setup(['xss'])
    await user.type(input, 'XSS{Enter}')
    expect(chips()).toEqual(['xss'])
    await user.type(input, 'csrf,xss,')
    expect(chips()).toEqual(['xss', 'csrf'])
    await waitFor(() => expect(writes).toEqual(['add csrf']))
  })

  it('refuses a tag that breaks the tag rules, keeps it in the box and says why', async () => {
    const { user, input, writes, chips } = setup(['xss'])
    await user.type(input, 'sql injection{Enter}')
    expect(chips()).toEqual(['xss'])
    expect(input).toHaveProperty('value', 'sql injection')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('alert')).toHaveTextContent('"sql injection" is not a tag')
    expect(writes).toEqual([])
  })
})
