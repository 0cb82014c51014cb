import type { ReactNode } from 'react'
import styled from 'styled-components'
import { Logo } from './logo'

const Column = styled.main`
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  align-items: center;
  padding: 48px 16px;
  gap: 8px;
`

/** For pages that stand alone, outside the workspace: the logo above the content. */
export function BareShell({ children }: { children: ReactNode }) {
  return (
    <Column>
      <Logo size={40} />
      {children}
    </Column>
  )
}
