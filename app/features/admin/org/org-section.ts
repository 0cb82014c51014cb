import styled from 'styled-components'
import { surface } from '~/ui/surface'

/** One panel of an administration page, its heading first. */
export const OrgSection = styled.section`
  ${surface}
  padding: 20px 24px;
  margin-bottom: 24px;
  display: grid;
  gap: 12px;

  h2 {
    margin: 0;
    font-size: 17px;
  }
  > p {
    margin: 0;
    color: var(--color-text-muted);
    font-size: 14px;
  }
`

/** Short muted text. */
export const Muted = styled.span`
  color: var(--color-text-muted);
  font-size: 13px;
`
