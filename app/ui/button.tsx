import styled from 'styled-components'

export const Button = styled.button<{ $variant?: 'primary' | 'secondary' }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  min-height: 38px;
  padding: 0 16px;
  border-radius: 8px;
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  border: 1px solid ${({ $variant }) => ($variant === 'secondary' ? 'var(--color-border)' : 'transparent')};
  background: ${({ $variant }) => ($variant === 'secondary' ? 'var(--color-surface)' : 'var(--color-primary)')};
  color: ${({ $variant }) => ($variant === 'secondary' ? 'var(--color-text)' : 'var(--color-primary-text)')};

  &:hover {
    filter: brightness(1.06);
  }
  &:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
`
