import type { ReactNode } from 'react'
import styled from 'styled-components'

const Header = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-start;
  justify-content: space-between;
  gap: 12px 24px;
  margin-bottom: 24px;
`

const Actions = styled.div`
  display: flex;
  gap: 8px;
`

const Title = styled.h1`
  font-size: 26px;
  font-weight: 650;
`

const Summary = styled.p`
  color: var(--color-text-muted);
  margin: 0;
`

/** A page's title and summary, with the page's own actions (an export menu, say) beside them. */
export function PageHeader({ title, summary, actions }: { title: string; summary?: string; actions?: ReactNode }) {
  return (
    <Header>
      <div>
        <Title>{title}</Title>
        {summary && <Summary>{summary}</Summary>}
      </div>
      {actions && <Actions>{actions}</Actions>}
    </Header>
  )
}
