import styled from 'styled-components'
import { surface } from '~/ui/surface'
import { fieldControl } from '~/ui/text-field'

export const Panel = styled.section`
  ${surface}
  max-width: 720px;
  padding: 20px 24px;
  margin-bottom: 24px;
  display: grid;
  gap: 16px;

  h2 {
    margin: 0;
    font-size: 17px;
  }
`

/** The one card a link's recipient sees (a share to reveal, a request to answer). */
export const LinkCard = styled.section`
  ${surface}
  width: 100%;
  max-width: 640px;
  padding: 24px;
  display: grid;
  gap: 14px;

  h1 {
    font-size: 20px;
    margin: 0;
  }
  p {
    margin: 0;
  }
`

export const Muted = styled.p`
  color: var(--color-text-muted);
`

/** A list of links or requests, one bordered entry each. */
export const EntryList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;

  > li {
    display: grid;
    gap: 6px;
    padding: 12px 0;
    border-top: 1px solid var(--color-border);
  }
`

/** An entry's first line: its name, and its status at the far end. */
export const EntryHead = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
`

export const Row = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: 16px;
`

export const TextArea = styled.textarea`
  ${fieldControl}
  min-height: 120px;
  padding: 10px 12px;
  font-family: var(--font-mono, monospace);
  resize: vertical;
`

export const Input = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
`

export const Hint = styled.p`
  margin: 0;
  font-size: 13px;
  color: var(--color-text-muted);
`

export const Inline = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: flex-end;

  > input {
    flex: 1;
    min-width: 200px;
  }
`

export const Check = styled.label`
  display: flex;
  gap: 8px;
  align-items: center;
`

export const HOUR = 3600_000
export const EXPIRIES = [
  { value: String(HOUR), label: '1 hour' },
  { value: String(24 * HOUR), label: '1 day' },
  { value: String(3 * 24 * HOUR), label: '3 days' },
  { value: String(7 * 24 * HOUR), label: '7 days' },
  { value: String(30 * 24 * HOUR), label: '30 days' },
]
