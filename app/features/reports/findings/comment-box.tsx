// The comment box of a finding, with @-mentions: typing "@" and the start of an address lists, under
// the box, a handful of the people who may see the finding (asked of the server, never the whole
// company); arrow keys move, Enter or Tab picks, Escape closes, a click picks too. A pick writes
// "@Name" and is sent with the comment, which tells that person. The textarea keeps its textbox
// role (ARIA in HTML allows no other on a textarea) and takes the combobox pattern's attributes:
// aria-autocomplete, aria-controls and aria-activedescendant, with a listbox of options.
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import styled from 'styled-components'
import { COMMENT_MAX_LENGTH, type CommentVisibility, type MentionPerson } from '#domain/finding-comments.ts'
import { callLazily } from '~/core/call-lazily'
import { floating } from '~/ui/surface'
import { fieldControl } from '~/ui/text-field'
import { colors, layers } from '~/ui/theme'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { activeMention, insertMention, type ActiveMention } from './mention-query'

// The list opens right under the text, over the hint, as a menu would.
const Anchor = styled.div`
  position: relative;
`

const TextArea = styled.textarea`
  ${fieldControl}
  width: 100%;
  min-height: 90px;
  padding: 10px 12px;
  resize: vertical;
`

const Hint = styled.p`
  margin: 4px 0 0;
  font-size: 13px;
  color: ${colors.textMuted};
`

const Popup = styled.div`
  position: absolute;
  left: 0;
  top: calc(100% + 4px);
  z-index: ${layers.popover};
  width: min(360px, 100%);
  padding: 4px;
  ${floating('near')}
`

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
`

const Option = styled.li`
  display: grid;
  gap: 1px;
  padding: 6px 10px;
  border-radius: 6px;
  cursor: pointer;

  small {
    color: ${colors.textMuted};
    overflow-wrap: anywhere;
  }
  &[aria-selected='true'] {
    background: ${colors.primarySoft};
    outline: 1px solid ${colors.primary};
  }
`

const Empty = styled.p`
  margin: 0;
  padding: 6px 10px;
  font-size: 13px;
  color: ${colors.textMuted};
`

/** Waits this long after the last key before asking the server: one request per pause, not per key. */
const ASK_AFTER_MS = 150

type Candidates = { query: string; people: MentionPerson[] } | null

export function CommentBox({
  id,
  company,
  findingId,
  visibility,
  value,
  onChange,
  onPick,
}: {
  id: string
  company: string
  findingId: string
  visibility: CommentVisibility
  value: string
  onChange: (text: string) => void
  /** A person picked from the list: the comment tells them if their "@Name" is still in it when posted. */
  onPick: (person: MentionPerson) => void
}) {
  const listId = useId()
  const hintId = useId()
  const ref = useRef<HTMLTextAreaElement>(null)
  const [caret, setCaret] = useState(0)
  const [candidates, setCandidates] = useState<Candidates>(null)
  const [active, setActive] = useState(0)
  // Escape closes the list for the mention it was open on; a new "@" opens it again.
  const [dismissed, setDismissed] = useState<number | null>(null)
  const [failed, setFailed] = useState(false)
  const placeCaret = useRef<number | null>(null)

  const mention: ActiveMention | null = activeMention(value, caret)
  const open = mention !== null && dismissed !== mention.start
  const query = open ? mention.query : null

  useEffect(() => {
    if (query === null) return
    let stale = false
    const timer = setTimeout(() => {
      void callLazily('listMentionCandidates', { company, findingId, visibility, prefix: query }).then(
        ({ people }) => {
          if (stale) return
          setFailed(false)
          setCandidates({ query, people })
          setActive(0)
        },
        () => !stale && setFailed(true),
      )
    }, ASK_AFTER_MS)
    return () => {
      stale = true
      clearTimeout(timer)
    }
  }, [company, findingId, visibility, query])

  useLayoutEffect(() => {
    if (placeCaret.current === null || !ref.current) return
    ref.current.setSelectionRange(placeCaret.current, placeCaret.current)
    setCaret(placeCaret.current)
    placeCaret.current = null
  }, [value])

  // What the list shows: the answer for what is typed now (an older one until it arrives).
  const people = open && candidates ? candidates.people : []
  const shown = open && candidates !== null
  const current = people[Math.min(active, people.length - 1)]

  function pick(person: MentionPerson) {
    if (!mention) return
    const next = insertMention(value, mention, caret, person)
    placeCaret.current = next.caret
    onPick(person)
    onChange(next.text)
    setCandidates(null)
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!open || !mention) return
    if (event.key === 'Escape') {
      // Closes the list only: a dialog around the box stays open.
      event.preventDefault()
      event.stopPropagation()
      setDismissed(mention.start)
      return
    }
    if (people.length === 0) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((index) => (Math.min(index, people.length - 1) + step + people.length) % people.length)
    } else if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && current) {
      event.preventDefault()
      pick(current)
    }
  }

  const follow = () => setCaret(ref.current?.selectionStart ?? 0)
  const optionId = (person: MentionPerson) => `${listId}-${person.uid}`
  const status = !shown
    ? ''
    : people.length === 0
      ? 'Nobody who can see this finding has an address starting so.'
      : `${people.length} ${people.length === 1 ? 'person' : 'people'} to mention: up and down arrows choose, Enter picks, Escape closes.`

  return (
    <div>
      <Anchor>
        <TextArea
          ref={ref}
          id={id}
          value={value}
          maxLength={COMMENT_MAX_LENGTH}
          onChange={(event) => {
            onChange(event.target.value)
            setCaret(event.target.selectionStart)
            if (dismissed !== null && activeMention(event.target.value, event.target.selectionStart)?.start !== dismissed) {
              setDismissed(null)
            }
          }}
          onSelect={follow}
          onClick={follow}
          onKeyDown={onKeyDown}
          onBlur={() => setCandidates(null)}
          aria-autocomplete="list"
          aria-controls={shown ? listId : undefined}
          aria-activedescendant={shown && current ? optionId(current) : undefined}
          aria-describedby={hintId}
        />
        {shown && (
          <Popup>
            <List id={listId} role="listbox" aria-label="People to mention">
              {people.map((person) => (
                <Option
                  key={person.uid}
                  id={optionId(person)}
                  role="option"
                  aria-selected={person === current}
                  // Keeps the focus in the box: the click picks, the caret stays where the mention is.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => pick(person)}
                >
                  <span>{person.name}</span>
                  {person.name !== person.email && <small>{person.email}</small>}
                </Option>
              ))}
            </List>
            {people.length === 0 && <Empty>{`Nobody who can see this finding has an address starting “${candidates.query}”.`}</Empty>}
          </Popup>
        )}
      </Anchor>
      <Hint id={hintId}>
        {visibility === 'internal'
          ? 'Type @ and the start of an address to mention an analyst of this company; they are notified.'
          : 'Type @ and the start of an address to mention someone who can see this finding; they are notified.'}
        {failed && ' The people to mention could not be loaded: keep typing to try again.'}
      </Hint>
      <VisuallyHidden role="status">{status}</VisuallyHidden>
    </div>
  )
}
