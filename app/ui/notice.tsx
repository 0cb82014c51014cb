import type { ReactNode } from 'react'
import styled from 'styled-components'
import { surface } from './surface'

/** A centred card for whole-page messages: sign-in required, not found, errors. */
const Card = styled.section`
  max-width: 480px;
  margin: 48px auto;
  padding: 32px;
  text-align: center;
  ${surface}

  h1 {
    font-size: 22px;
  }
  p {
    color: var(--color-text-muted);
  }
  > :last-child {
    margin-bottom: 0;
  }
`

export function Notice({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Card aria-labelledby="notice-title">
      <h1 id="notice-title">{title}</h1>
      {children}
    </Card>
  )
}
