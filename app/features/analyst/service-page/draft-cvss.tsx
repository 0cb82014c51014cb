// The CVSS vector of the selected draft findings: what is wrong with a vector, said in words as it
// is typed; a vector that reads gives its score and the severity the findings take from it (those
// whose severity an analyst chose by hand keep theirs, as the server does).
import { useId, useState } from 'react'
import { parseCvssVector, severityOfScore } from '#domain/cvss.ts'
import { formatNumber } from '#domain/numbers.ts'
import type { DraftFinding } from '#domain/scan-drafts.ts'
import { severityLabels } from '#domain/template-vocabulary.ts'
import { Button } from '~/ui/button'
import { ErrorText, FilterInput, Muted, Toolbar } from './parts'

export interface DraftCvssProps {
  chosen: readonly DraftFinding[]
  busy: boolean
  /** Sets the vector (null removes it); resolves once the call is answered. */
  onSet(vector: string | null): Promise<unknown>
}

/** What a valid score does to the selected findings' severity. */
function followed(score: number, chosen: readonly DraftFinding[]): string {
  const severity = severityLabels[severityOfScore(score)]
  const byHand = chosen.filter((f) => f.severityByHand).length
  if (chosen.length === 0) return `${severity}. Select findings to set it.`
  if (byHand === 0) return `The severity becomes ${severity}.`
  if (byHand === chosen.length) return `The severity chosen by hand stays; choose "Follow the CVSS score" to make it ${severity}.`
  return `The severity becomes ${severity}, except for the ${formatNumber(byHand)} chosen by hand.`
}

export function DraftCvss({ chosen, busy, onSet }: DraftCvssProps) {
  const id = useId()
  const [vector, setVector] = useState('')
  const parsed = vector.trim() ? parseCvssVector(vector) : null
  const only = chosen.length === 1 ? chosen[0]! : null
  return (
    <Toolbar role="group" aria-label="CVSS of the selected findings">
      <label htmlFor={id}>CVSS vector</label>
      <FilterInput
        id={id}
        value={vector}
        onChange={(event) => setVector(event.target.value)}
        placeholder={only?.cvss?.vector ?? 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'}
        spellCheck={false}
        aria-invalid={parsed !== null && !parsed.ok}
        aria-describedby={`${id}-says`}
      />
      <Button
        type="button"
        $variant="secondary"
        disabled={busy || chosen.length === 0 || !parsed?.ok}
        onClick={() => void onSet(vector.trim()).then(() => setVector(''))}
      >
        Set CVSS
      </Button>
      <Button type="button" $variant="secondary" disabled={busy || !chosen.some((f) => f.cvss)} onClick={() => void onSet(null)}>
        Remove CVSS
      </Button>
      {parsed && !parsed.ok ? (
        <ErrorText id={`${id}-says`}>{`${parsed.error}.`}</ErrorText>
      ) : (
        <Muted id={`${id}-says`}>
          {parsed?.ok
            ? `Score ${parsed.score.toFixed(1)}. ${followed(parsed.score, chosen)}`
            : only?.cvss
              ? `Now ${only.cvss.score.toFixed(1)} (${only.cvss.vector}).`
              : ''}
        </Muted>
      )}
    </Toolbar>
  )
}
