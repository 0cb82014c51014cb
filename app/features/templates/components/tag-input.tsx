import { IconX } from '@tabler/icons-react'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import styled, { css } from 'styled-components'
import { useAutosave } from '~/ui/autosave/use-autosave'
import { colors, layers } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { AutosaveFieldFrame, describedBy, saveError, useFieldIds } from '~/ui/autosave/autosave-field-frame'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { describeTagError, enterTags, matchingSuggestions, sameTags, TagSaver, type TagSuggestion } from './tag-entry'

const Combobox = styled.div`
  position: relative;
`

/** Looks like a text field; the chips and the input wrap inside it. */
const Box = styled.div<{ $invalid: boolean }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
  min-height: 40px;
  padding: 4px 6px;
  border: 1px solid ${({ $invalid }) => ($invalid ? colors.danger : colors.border)};
  border-radius: 8px;
  background: ${colors.surface};
  cursor: text;

  &:has(input:focus-visible) {
    outline: 2px solid ${colors.focus};
    outline-offset: 2px;
  }
`

const Chips = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  margin: 0;
  padding: 0;
  list-style: none;
`

const Chip = styled.li<{ $unsaved: boolean }>`
  display: inline-flex;
  align-items: center;
  gap: 2px;
  min-height: 28px;
  padding: 0 2px 0 10px;
  border: 1px solid transparent;
  border-radius: 999px;
  background: ${colors.primarySoft};
  color: ${colors.text};
  font-size: 13px;
  font-weight: 600;
  cursor: default;

  ${({ $unsaved }) =>
    $unsaved &&
    css`
      border: 1px dashed ${colors.danger};
      background: none;
    `}
`

const RemoveButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 24px;
  height: 24px;
  padding: 0;
  border: none;
  border-radius: 50%;
  background: none;
  color: ${colors.textMuted};
  cursor: pointer;

  &:hover {
    background: color-mix(in srgb, ${colors.text} 10%, transparent);
    color: ${colors.text};
  }
`

const EntryInput = styled.input`
  flex: 1 0 120px;
  min-width: 0;
  min-height: 30px;
  padding: 0 6px;
  border: none;
  background: none;
  color: ${colors.text};
  font: inherit;

  /* The box around it shows the focus. */
  &:focus-visible {
    outline: none;
  }
`

const Listbox = styled.ul`
  position: absolute;
  z-index: ${layers.popover};
  top: calc(100% + 4px);
  left: 0;
  right: 0;
  max-height: 280px;
  overflow-y: auto;
  margin: 0;
  padding: 4px;
  list-style: none;
  border: 1px solid ${colors.border};
  border-radius: 10px;
  background: ${colors.surfaceRaised};
  box-shadow: 0 12px 32px rgb(0 0 0 / 0.18);

  &[hidden] {
    display: none;
  }
`

const Option = styled.li`
  display: flex;
  justify-content: space-between;
  gap: 12px;
  padding: 8px 10px;
  border-radius: 6px;
  color: ${colors.text};
  cursor: pointer;

  &[aria-selected='true'] {
    background: ${colors.primarySoft};
    box-shadow: inset 3px 0 0 ${colors.primary};
  }
  @media (forced-colors: active) {
    &[aria-selected='true'] {
      outline: 2px solid Highlight;
    }
  }
`

const OptionCount = styled.span`
  color: ${colors.textMuted};
  font-size: 13px;
  font-variant-numeric: tabular-nums;
`

const countOf = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`

/**
 * A template's tags as chips, with a combobox that suggests tags other templates use. Each add and
 * remove is saved on its own, at once; a change that did not save is marked and named, and is
 * tried again with the next change or when focus leaves the field.
 */
export function TagInput({
  saved,
  onAdd,
  onRemove,
  suggestions,
}: {
  saved: string[]
  onAdd(tag: string): Promise<void>
  onRemove(tag: string): Promise<void>
  suggestions: TagSuggestion[]
}) {
  const ids = useFieldIds()
  const listboxId = `${ids.control}-suggestions`
  const optionId = (index: number) => `${listboxId}-${index}`
  const input = useRef<HTMLInputElement>(null)
  const listbox = useRef<HTMLUListElement>(null)

  // The latest callbacks, so that the saver (and saves queued in it) outlive re-renders.
  const callbacks = useRef({ onAdd, onRemove })
  useEffect(() => {
    callbacks.current = { onAdd, onRemove }
  })
  const [saver] = useState(
    () => new TagSaver(saved, { add: (tag) => callbacks.current.onAdd(tag), remove: (tag) => callbacks.current.onRemove(tag) }),
  )
  useEffect(() => saver.follow(saved), [saver, saved])
  const field = useAutosave({ variant: 'tag', saved, save: saver.save, equals: sameTags, describeError: describeTagError })

  // What is typed before the page is interactive would be lost when React takes over the field.
  const hydrated = useHydrated()
  const [draft, setDraft] = useState('')
  const [entryError, setEntryError] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const problems = [entryError, saveError(field)]
  const invalid = problems.some((problem) => problem !== null)
  const options = matchingSuggestions(suggestions, draft, field.value)
  const expanded = open && options.length > 0
  const activeOption = expanded ? options[active] : undefined

  useEffect(() => {
    if (activeOption) listbox.current?.children[active]?.scrollIntoView({ block: 'nearest' })
  }, [active, activeOption])

  const saveTags = (tags: string[]) => {
    if (sameTags(tags, field.value)) return
    field.type(tags)
    field.flush()
  }

  const enter = (text: string, whole: boolean) => {
    const entry = enterTags(field.value, text, { whole })
    setDraft(entry.draft)
    setEntryError(entry.error)
    saveTags(entry.tags)
  }

  const close = () => {
    setOpen(false)
    setActive(-1)
  }

  const pick = (option: TagSuggestion) => {
    enter(option.tag, true)
    close()
  }

  const remove = (tag: string) => {
    setEntryError(null)
    saveTags(field.value.filter((kept) => kept !== tag))
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        setOpen(true)
        setActive(expanded && active < last ? active + 1 : 0)
        break
      case 'ArrowUp':
        event.preventDefault()
        setOpen(true)
        setActive(expanded && active > 0 ? active - 1 : last)
        break
      case 'Enter':
        event.preventDefault()
        if (activeOption) pick(activeOption)
        else if (draft.trim() !== '') enter(draft, true)
        else field.flush()
        break
      case 'Escape':
        if (expanded) {
          event.preventDefault()
          close()
        } else {
          setDraft('')
          setEntryError(null)
        }
        break
      case 'Backspace': {
        const lastTag = field.value.at(-1)
        if (draft === '' && lastTag !== undefined) {
          event.preventDefault()
          remove(lastTag)
        }
        break
      }
      case 'Tab':
        close()
        break
    }
  }

  return (
    <AutosaveFieldFrame
      ids={ids}
      label="Tags"
      field={field}
      savedText={field.saved.join(', ')}
      hint="Enter or a comma adds a tag; Backspace in the empty box removes the last one."
      errors={problems}
    >
      <Combobox>
        {/* A click anywhere in the box types into it, as in a text field; the keyboard reaches the input directly. */}
        <Box $invalid={invalid} onClick={() => input.current?.focus()}>
          {field.value.length > 0 && (
            <Chips aria-label="Chosen tags">
              {field.value.map((tag) => {
                const unsaved = field.status === 'failed' && !field.saved.includes(tag)
                return (
                  <Chip key={tag} $unsaved={unsaved}>
                    {tag}
                    {unsaved && <VisuallyHidden> (not saved)</VisuallyHidden>}
                    <RemoveButton
                      type="button"
                      aria-label={`Remove ${tag}`}
                      disabled={!hydrated}
                      onClick={() => {
                        remove(tag)
                        // Back in the input, typing and Backspace carry on from here.
                        input.current?.focus()
                      }}
                    >
                      <IconX size={14} aria-hidden="true" />
                    </RemoveButton>
                  </Chip>
                )
              })}
            </Chips>
          )}
          <EntryInput
            ref={input}
            id={ids.control}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listboxId}
            aria-activedescendant={activeOption ? optionId(active) : undefined}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy(ids.hint, invalid && ids.error)}
            value={draft}
            disabled={!hydrated}
            placeholder="Add a tag"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(event) => {
              const text = event.target.value
              setOpen(true)
              setActive(-1)
              if (text.includes(',')) enter(text, false)
              else {
                // Tags have no spaces: the one typed after a comma is not kept.
                setDraft(text.trimStart())
                setEntryError(null)
              }
            }}
            onKeyDown={onKeyDown}
            onBlur={() => {
              close()
              field.flush()
            }}
          />
        </Box>
        <Listbox ref={listbox} id={listboxId} role="listbox" aria-label="Tag suggestions" hidden={!expanded}>
          {options.map((option, index) => (
            <Option
              key={option.tag}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              aria-label={`${option.tag}, ${countOf(option.count, 'template')}`}
              // Keeps focus in the input, where the keyboard works the list.
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => setActive(index)}
              onClick={() => pick(option)}
            >
              {option.tag}
              <OptionCount aria-hidden="true">{option.count}</OptionCount>
            </Option>
          ))}
        </Listbox>
        <VisuallyHidden role="status">{expanded ? countOf(options.length, 'suggestion') : ''}</VisuallyHidden>
      </Combobox>
    </AutosaveFieldFrame>
  )
}
