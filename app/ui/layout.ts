import { css } from 'styled-components'

/** Items in a row that wraps onto more lines when narrow, centred across. */
export const cluster = (gap: string) => css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${gap};
`

/** Terms and their definitions side by side (a `dl`). */
export const definitionGrid = (gap: string) => css`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: ${gap};
  margin: 0;

  dd {
    margin: 0;
  }
`
