import { useId } from 'react'
import styled from 'styled-components'

const Group = styled.div`
  display: inline-flex;
  align-self: flex-start;
  padding: 3px;
  gap: 2px;
  border-radius: 10px;
  border: 1px solid var(--color-border);
  background: var(--color-bg);
`

const Option = styled.label`
  position: relative;
  display: inline-flex;
  align-items: center;
  gap: 6px;
  min-height: 32px;
  padding: 0 14px;
  border-radius: 7px;
  font-size: 14px;
  font-weight: 600;
  color: var(--color-text-muted);
  cursor: pointer;

  input {
    position: absolute;
    opacity: 0;
    inset: 0;
    margin: 0;
    cursor: pointer;
  }
  &:has(input:checked) {
    background: var(--color-surface);
    color: var(--color-text);
    box-shadow: 0 1px 2px rgb(0 0 0 / 0.12);
  }
  &:has(input:focus-visible) {
    outline: 2px solid var(--color-focus);
    outline-offset: 1px;
  }
`

/** One choice among a few, as native radio buttons (arrow keys move between them). */
export function SegmentedControl<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: T
  options: readonly { value: T; label: string }[]
  onChange(value: T): void
}) {
  const name = useId()
  return (
    <Group role="radiogroup" aria-label={label}>
      {options.map((option) => (
        <Option key={option.value}>
          <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
          {option.label}
        </Option>
      ))}
    </Group>
  )
}
