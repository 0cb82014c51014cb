// "Fill in missing addresses" (platform admins): people whose users_access was written before it
// kept the address are not listed until it is there. fillMissingAddresses goes through every
// document a stretch at a time; the button follows it to the end, saying how far it is, and after
// a failure goes on from where the last answer stopped.
import { useState } from 'react'
import styled from 'styled-components'
import type { CallableResponse } from '#domain/callables.ts'
import { formatNumber } from '#domain/numbers.ts'
import { callLazily } from '~/core/call-lazily'
import { Button } from '~/ui/button'
import { FormMessage } from '~/ui/text-field'

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 10px;
  align-items: center;
  font-size: 14px;
`

type Totals = Omit<CallableResponse<'fillMissingAddresses'>, 'next'>

type Fill =
  | { status: 'idle' }
  | { status: 'running' | 'failed'; totals: Totals; cursor: string | null; error?: string }
  | { status: 'done'; totals: Totals }

const ZERO: Totals = { read: 0, filled: 0, withoutAccount: 0 }

/** "12 filled, 3 without an account". */
export const fillLine = ({ filled, withoutAccount }: Totals) =>
  `${formatNumber(filled)} filled, ${formatNumber(withoutAccount)} without an account`

export function FillAddresses({ onDone }: { onDone: () => void }) {
  const [fill, setFill] = useState<Fill>({ status: 'idle' })
  async function run(from: string | null, totals: Totals) {
    let cursor = from
    let sum = totals
    setFill({ status: 'running', totals: sum, cursor })
    try {
      do {
        const answer = await callLazily('fillMissingAddresses', { cursor })
        sum = {
          read: sum.read + answer.read,
          filled: sum.filled + answer.filled,
          withoutAccount: sum.withoutAccount + answer.withoutAccount,
        }
        cursor = answer.next
        setFill({ status: 'running', totals: sum, cursor })
      } while (cursor !== null)
      setFill({ status: 'done', totals: sum })
      onDone()
    } catch (failure) {
      const error = failure instanceof Error ? failure.message : 'The addresses could not be filled in.'
      setFill({ status: 'failed', totals: sum, cursor, error })
    }
  }
  return (
    <Row aria-live="polite" aria-busy={fill.status === 'running'}>
      {fill.status === 'idle' && (
        <Button type="button" $variant="secondary" onClick={() => void run(null, ZERO)}>
          Fill in missing addresses
        </Button>
      )}
      {fill.status === 'running' && (
        <span role="status">
          Filling in addresses: {formatNumber(fill.totals.read)} people read, {fillLine(fill.totals)}…
        </span>
      )}
      {fill.status === 'failed' && (
        <>
          <FormMessage $tone="error">
            {fill.error} ({fillLine(fill.totals)} so far)
          </FormMessage>
          <Button type="button" $variant="secondary" onClick={() => void run(fill.cursor, fill.totals)}>
            Go on
          </Button>
        </>
      )}
      {fill.status === 'done' && <span>Addresses filled in: {fillLine(fill.totals)}.</span>}
    </Row>
  )
}
