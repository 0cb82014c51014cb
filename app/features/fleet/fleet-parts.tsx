import styled from 'styled-components'
import { surface } from '~/ui/surface'

export const Section = styled.section`
  ${surface}
  padding: 20px 24px;
  margin-bottom: 20px;

  h2 {
    font-size: 17px;
    margin: 0 0 12px;
  }
`

export const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: flex-end;
`

export const Secret = styled.pre`
  white-space: pre-wrap;
  word-break: break-all;
  padding: 12px;
  border: 1px solid var(--color-border);
  border-radius: 6px;
  font-size: 13px;
`

export const Muted = styled.span`
  color: var(--color-text-muted);
`
