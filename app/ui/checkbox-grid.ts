import styled, { css } from 'styled-components'

// Checkboxes laid out in columns with their labels beside them: a company's service switches, the
// companies a location scans for. As a fieldset (CheckboxGroup) its legend names the group.
const grid = css`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: 6px 16px;

  label {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 14px;
  }
  input {
    width: 18px;
    height: 18px;
    accent-color: var(--color-primary);
  }
`

export const CheckboxGrid = styled.div`
  ${grid}
`

export const CheckboxGroup = styled.fieldset`
  ${grid}
  border: none;
  margin: 0;
  padding: 0;

  legend {
    font-weight: 600;
    font-size: 14px;
    margin-bottom: 6px;
    padding: 0;
  }
`
