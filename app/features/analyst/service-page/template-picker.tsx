// The template a draft's selected findings are published with, chosen by searching the library
// (a combobox over a listbox): the templates written for the draft's service by default (or every
// service's, when asked), those that fit the first selected finding first, narrowed by each word
// typed. The library is a few hundred templates, already loaded for the review: searching it here
// costs no request.
import { useId, useRef, useState, type KeyboardEvent } from 'react'
import styled from 'styled-components'
import { formatNumber } from '#domain/numbers.ts'
import { serviceById, type ServiceId } from '#domain/services.ts'
import { choiceFits, suggestTemplates, type TemplateChoice } from '#domain/template-mappings.ts'
import { fieldControl } from '~/ui/text-field'
import { VisuallyHidden } from '~/ui/visually-hidden'

/** Options listed at once; typing narrows to the rest. */
export const TEMPLATES_LISTED = 50

const Picker = styled.div`
  position: relative;
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px 12px;

  input[role='combobox'] {
    ${fieldControl}
    min-height: 38px;
    min-width: 280px;
    padding: 0 10px;
  }
`

const Popup = styled.div`
  position: absolute;
  top: calc(100% + 4px);
  left: 0;
  z-index: 5;
  width: min(520px, calc(100vw - 32px));
  max-height: 360px;
  overflow: auto;
  padding: 4px 0;
  border: 1px solid var(--color-border);
  border-radius: 8px;
  background: var(--color-surface-raised);
  color: var(--color-text);
  box-shadow: 0 8px 24px rgb(0 0 0 / 0.18);

  ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .group {
    padding: 6px 12px 2px;
    font-size: 12px;
    font-weight: 650;
    color: var(--color-text-muted);
  }
  [role='option'] {
    padding: 6px 12px;
    cursor: pointer;
  }
  [role='option'][aria-selected='true'] {
    background: var(--color-primary-soft);
    outline: 2px solid var(--color-focus);
    outline-offset: -2px;
  }
  [role='option'] small {
    display: block;
    color: var(--color-text-muted);
  }
  p {
    margin: 0;
    padding: 6px 12px;
    color: var(--color-text-muted);
  }
`

const wordsOf = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean)

/** Every word typed is in the title or the slug. */
const matches = (template: TemplateChoice, words: readonly string[]) => {
  const haystack = `${template.title} ${template.slug}`.toLowerCase()
  return words.every((word) => haystack.includes(word))
}

interface Option {
  key: string
  slug: string | null
  title: string
  group: 'suggested' | 'matching' | 'none'
}

export interface TemplatePickerProps {
  service: ServiceId
  templates: readonly TemplateChoice[]
  /** The finding whose template is likely wanted (the first selected), for suggestions. */
  finding?: { title: string; ruleId: string; cwe: readonly string[] } | null
  disabled?: boolean
  onPick(slug: string | null): void
}

export function TemplatePicker({ service, templates, finding, disabled = false, onPick }: TemplatePickerProps) {
  const id = useId()
  const popup = useRef<HTMLDivElement>(null)
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [everyService, setEveryService] = useState(false)

  const serviceLabel = serviceById(service)?.label ?? service
  const offered = everyService ? templates : templates.filter((t) => choiceFits(t, service))
  const words = wordsOf(query)
  const found = words.length ? offered.filter((t) => matches(t, words)) : offered
  const suggested = !words.length && finding ? suggestTemplates(finding, offered) : []
  const listed = found.filter((t) => !suggested.includes(t)).slice(0, TEMPLATES_LISTED)
  const options: Option[] = [
    ...suggested.map((t) => ({ key: `s-${t.slug}`, slug: t.slug, title: t.title, group: 'suggested' as const })),
    ...listed.map((t) => ({ key: t.slug, slug: t.slug, title: t.title, group: 'matching' as const })),
    { key: 'none', slug: null, title: 'No template (the scanner’s text)', group: 'none' },
  ]
  const unlisted = found.length - suggested.filter((t) => found.includes(t)).length - listed.length
  const expanded = open && !disabled
  const optionId = (index: number) => `${id}-option-${index}`
  const activeOption = expanded ? options[active] : undefined

  const close = () => {
    setOpen(false)
    setActive(-1)
  }
  const pick = (option: Option) => {
    close()
    setQuery('')
    onPick(option.slug)
  }
  const move = (to: number) => {
    setOpen(true)
    setActive(to)
    popup.current?.querySelector(`#${CSS.escape(optionId(to))}`)?.scrollIntoView({ block: 'nearest' })
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault()
        move(expanded && active < last ? active + 1 : 0)
        break
      case 'ArrowUp':
        event.preventDefault()
        move(expanded && active > 0 ? active - 1 : last)
        break
      case 'Home':
      case 'End':
        if (!expanded) break
        event.preventDefault()
        move(event.key === 'Home' ? 0 : last)
        break
      case 'Enter':
        event.preventDefault()
        if (activeOption) pick(activeOption)
        break
      case 'Escape':
        if (expanded) {
          event.preventDefault()
          close()
        } else setQuery('')
        break
      case 'Tab':
        close()
        break
    }
  }

  const group = (name: Option['group'], label: string) => {
    const members = options.map((option, index) => ({ option, index })).filter(({ option }) => option.group === name)
    if (members.length === 0) return null
    return (
      <ul role="group" aria-labelledby={`${id}-${name}`}>
        <li role="presentation" id={`${id}-${name}`} className="group">
          {label}
        </li>
        {members.map(({ option, index }) => (
          <li
            key={option.key}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            // Keeps focus in the input, where the keyboard works the list.
            onMouseDown={(event) => event.preventDefault()}
            onMouseMove={() => setActive(index)}
            onClick={() => pick(option)}
          >
            {option.title}
            {option.slug && <small>{option.slug}</small>}
          </li>
        ))}
      </ul>
    )
  }

  return (
    <Picker>
      <label htmlFor={`${id}-input`}>Template</label>
      <input
        id={`${id}-input`}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={`${id}-listbox`}
        aria-activedescendant={activeOption ? optionId(active) : undefined}
        aria-describedby={`${id}-hint`}
        value={query}
        disabled={disabled}
        placeholder={everyService ? 'Search every template' : `Search ${serviceLabel} templates`}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          setQuery(event.target.value)
          setOpen(true)
          setActive(-1)
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      <VisuallyHidden id={`${id}-hint`}>Maps the selected findings, and remembers the rule for later imports.</VisuallyHidden>
      <label>
        <input type="checkbox" checked={everyService} disabled={disabled} onChange={(event) => setEveryService(event.target.checked)} />{' '}
        Every service
      </label>
      <Popup ref={popup} hidden={!expanded}>
        <div id={`${id}-listbox`} role="listbox" aria-label="Templates">
          {group('suggested', 'Suggested for this finding')}
          {group('matching', words.length ? 'Matching' : everyService ? 'Every template' : `${serviceLabel} templates`)}
          {group('none', 'Or')}
        </div>
        {unlisted > 0 && <p>{`${formatNumber(unlisted)} more: type to narrow.`}</p>}
        {words.length > 0 && found.length === 0 && (
          <p>{everyService ? 'No template matches.' : `No ${serviceLabel} template matches: try every service.`}</p>
        )}
      </Popup>
      {/* Only while open: the review's own status lines stay the page's only ones otherwise. */}
      {expanded && (
        <VisuallyHidden role="status">{`${formatNumber(found.length)} ${found.length === 1 ? 'template' : 'templates'}`}</VisuallyHidden>
      )}
    </Picker>
  )
}
