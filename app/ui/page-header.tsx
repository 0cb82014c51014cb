import styled from 'styled-components'

const Header = styled.header`
  margin-bottom: 24px;
`

const Title = styled.h1`
  font-size: 26px;
  font-weight: 650;
`

const Summary = styled.p`
  color: var(--color-text-muted);
  margin: 0;
`

export function PageHeader({ title, summary }: { title: string; summary?: string }) {
  return (
    <Header>
      <Title>{title}</Title>
      {summary && <Summary>{summary}</Summary>}
    </Header>
  )
}
