import { IconX } from '@tabler/icons-react'
import { useId, useRef, useState } from 'react'
import styled from 'styled-components'
import { cluster } from '~/ui/layout'
import { CVSS_VERSIONS, cvssBaseMetrics, parseCvssVector, type CvssMetric, type CvssSeverity, type CvssVersion } from '#domain/cvss.ts'
import type { TemplateCvss } from '#domain/finding-template.ts'
import { useAutosave } from '~/ui/autosave/use-autosave'
import { Button } from '~/ui/button'
import { SegmentedControl } from '~/ui/segmented-control'
import { SeverityBadge } from '~/ui/severity-badge'
import { fieldControl } from '~/ui/text-field'
import { colors, fonts, media } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { AutosaveFieldFrame, describedBy, saveError, useFieldIds } from '~/ui/autosave/autosave-field-frame'
import { chooseMetric, convertVector, cvssProblem, cvssRecord, sameVector, selectionsOf, versionOfVector } from './cvss-editing'

/** The version the builder starts with when there is no vector: the one most templates use. */
const DEFAULT_VERSION: CvssVersion = '3.1'

const versionOptions = CVSS_VERSIONS.map((version) => ({ value: version, label: `CVSS ${version}` }))

const Stack = styled.div`
  display: grid;
  gap: 12px;
  min-width: 0;
`

const VectorRow = styled.div`
  display: flex;
  gap: 8px;
`

const VectorInput = styled.input`
  ${fieldControl}
  flex: 1;
  min-width: 0;
  min-height: 40px;
  padding: 0 12px;
  font-family: ${fonts.mono};
  font-size: 14px;
`

const Builder = styled.fieldset`
  display: grid;
  gap: 16px;
  min-width: 0;
  margin: 0;
  padding: 14px 16px;
  border: 1px solid ${colors.border};
  border-radius: 12px;
  background: ${colors.bg};

  ${media.mobile} {
    padding: 12px;
  }
`

const BuilderHead = styled.div`
  ${cluster('12px')}
  justify-content: space-between;
`

const Score = styled.p`
  display: flex;
  align-items: center;
  gap: 8px;
  margin: 0;
  font-size: 14px;
  color: ${colors.textMuted};

  strong {
    font-size: 22px;
    color: ${colors.text};
    font-variant-numeric: tabular-nums;
  }
`

const MetricGroup = styled.fieldset`
  display: grid;
  gap: 10px;
  margin: 0;
  padding: 0;
  border: none;
  min-width: 0;

  legend {
    padding: 0;
    margin-bottom: 10px;
    font-size: 12px;
    font-weight: 700;
    letter-spacing: 0.04em;
    text-transform: uppercase;
    color: ${colors.textMuted};
  }
`

const MetricRow = styled.div`
  display: grid;
  grid-template-columns: minmax(150px, 200px) 1fr;
  align-items: center;
  gap: 6px 12px;

  ${media.mobile} {
    grid-template-columns: 1fr;
  }
`

const MetricName = styled.span`
  font-size: 14px;
  font-weight: 600;
`

const MetricKey = styled.span`
  margin-left: 6px;
  font-family: ${fonts.mono};
  font-size: 12px;
  font-weight: 400;
  color: ${colors.textMuted};
`

const Choices = styled.div`
  ${cluster('6px')}
`

/** A radio button that looks like a button: filled when chosen, outlined when not. */
const Choice = styled.label`
  position: relative;
  display: inline-flex;
  align-items: center;
  min-height: 32px;
  padding: 0 12px;
  border: 1px solid ${colors.border};
  border-radius: 7px;
  background: ${colors.surface};
  color: ${colors.text};
  font-size: 14px;
  cursor: pointer;

  input {
    position: absolute;
    inset: 0;
    margin: 0;
    opacity: 0;
    cursor: pointer;
  }
  &:hover {
    border-color: ${colors.primary};
  }
  &:has(input:checked) {
    border-color: ${colors.primary};
    background: ${colors.primary};
    color: ${colors.primaryText};
    font-weight: 600;
  }
  &:has(input:focus-visible) {
    outline: 2px solid ${colors.focus};
    outline-offset: 2px;
  }
  @media (forced-colors: active) {
    &:has(input:checked) {
      forced-color-adjust: none;
      background: Highlight;
      color: HighlightText;
    }
  }
`

/** A CVSS rating as a severity badge; a score of 0 is the rating "None". */
function CvssSeverityBadge({ severity }: { severity: CvssSeverity }) {
  return severity === 'none' ? <SeverityBadge severity="info" label="None" /> : <SeverityBadge severity={severity} />
}

/**
 * A template's CVSS vector, saved as it is typed, pasted or built. The text is the field's value:
 * a valid vector saves with its version and score, a blank one clears it, an invalid one stays in
 * the field with the parser's reason and is not saved. The builder shows the choices the text
 * makes and writes each new choice back into it.
 */
export function CvssField({ saved, save }: { saved: TemplateCvss | null; save(value: TemplateCvss | null): Promise<void> }) {
  const ids = useFieldIds()
  const input = useRef<HTMLInputElement>(null)
  // What is chosen before the page is interactive would be lost when React takes over the field.
  const hydrated = useHydrated()
  // The callback variant's longer pause lets a person click through the builder's metrics before
  // the vector is checked and saved; Enter and leaving the text field save at once.
  const field = useAutosave({
    variant: 'callback',
    saved: saved?.vector ?? '',
    save: (text) => save(cvssRecord(text)),
    validate: cvssProblem,
    equals: sameVector,
  })
  const error = saveError(field)
  const [chosenVersion, setChosenVersion] = useState<CvssVersion>(saved?.version ?? DEFAULT_VERSION)
  // Each version's last vector, so that switching there and back restores it.
  const vectorByVersion = useRef<Partial<Record<CvssVersion, string>>>({})
  const version = versionOfVector(field.value) ?? chosenVersion
  const selections = selectionsOf(field.value, version)
  const parsed = field.value.trim() === '' ? null : parseCvssVector(field.value)

  const switchVersion = (next: CvssVersion) => {
    setChosenVersion(next)
    // Without a vector the switch only picks the builder's metrics.
    if (versionOfVector(field.value) === null || next === version) return
    vectorByVersion.current[version] = field.value
    field.type(vectorByVersion.current[next] ?? convertVector(field.value, next))
  }

  const clear = () => {
    // The builder stays on the version it showed.
    setChosenVersion(version)
    field.type('')
    field.flush()
    // The button is disabled now: focus goes where the next vector is typed.
    input.current?.focus()
  }

  return (
    <Stack>
      <AutosaveFieldFrame
        ids={ids}
        label="CVSS vector"
        field={field}
        savedText={field.saved}
        hint="Paste a vector or build it below. Informational findings have no vector: clear it."
        errors={[error]}
      >
        <VectorRow>
          <VectorInput
            ref={input}
            id={ids.control}
            value={field.value}
            disabled={!hydrated}
            placeholder="CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={error !== null || undefined}
            aria-describedby={describedBy(ids.hint, error && ids.error)}
            onChange={(event) => field.type(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') field.flush()
            }}
            onBlur={() => field.flush()}
          />
          <Button type="button" $variant="secondary" onClick={clear} disabled={!hydrated || field.value === ''}>
            <IconX size={16} aria-hidden="true" />
            Clear
          </Button>
        </VectorRow>
      </AutosaveFieldFrame>
      <Builder aria-label="CVSS vector builder" disabled={!hydrated}>
        <BuilderHead>
          <SegmentedControl label="CVSS version" value={version} options={versionOptions} onChange={switchVersion} />
          <Score aria-live="polite" aria-atomic="true">
            {parsed?.ok ? (
              <>
                Score <strong>{parsed.score.toFixed(1)}</strong>
                <CvssSeverityBadge severity={parsed.severity} />
              </>
            ) : (
              <>{parsed ? 'No score yet' : 'No vector'}</>
            )}
          </Score>
        </BuilderHead>
        {groupsOf(cvssBaseMetrics[version]).map(([group, metrics]) => (
          <MetricGroup key={`${version}-${group}`}>
            <legend>{group}</legend>
            {metrics.map((metric) => (
              <MetricChoices
                key={metric.key}
                metric={metric}
                chosen={selections[metric.key]}
                onChoose={(value) => field.type(chooseMetric(field.value, version, metric.key, value))}
              />
            ))}
          </MetricGroup>
        ))}
      </Builder>
    </Stack>
  )
}

/** Metrics under their specification headings, in order. */
function groupsOf(metrics: readonly CvssMetric[]): [string, CvssMetric[]][] {
  const groups = new Map<string, CvssMetric[]>()
  for (const metric of metrics) groups.set(metric.group, [...(groups.get(metric.group) ?? []), metric])
  return [...groups]
}

/** One base metric as a radio group: Tab enters it, the arrow keys choose. */
function MetricChoices({ metric, chosen, onChoose }: { metric: CvssMetric; chosen: string | undefined; onChoose(value: string): void }) {
  const id = useId()
  return (
    <MetricRow role="radiogroup" aria-labelledby={`${id}-name`}>
      <MetricName id={`${id}-name`}>
        {metric.name}
        <MetricKey aria-hidden="true">{metric.key}</MetricKey>
      </MetricName>
      <Choices>
        {metric.values.map((value) => (
          <Choice key={value.key}>
            <input type="radio" name={id} value={value.key} checked={chosen === value.key} onChange={() => onChoose(value.key)} />
            {value.label}
          </Choice>
        ))}
      </Choices>
    </MetricRow>
  )
}
