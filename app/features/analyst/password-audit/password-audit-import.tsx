// The password audit's import: the analyst drops the secretsdump dump and the pot files, and the
// audit is derived here, in the browser. Only the derived scan is handed on (onResult); the files,
// the passwords and the hashes never leave the page.
import { useId, useState } from 'react'
import styled from 'styled-components'
import { dropZone, useFileDrop } from '~/ui/file-drop'
import { ScanParseError, type ParsedScan } from '#domain/scan-import/parsed-scan.ts'
import { importPasswordAudit } from '#domain/scan-import/password-audit-import.ts'
import { SEVERITIES, severityLabels } from '#domain/template-vocabulary.ts'
import { Button } from '~/ui/button'
import { OutcomeMessage } from '~/ui/outcome-message'
import { Field, fieldControl, Label } from '~/ui/text-field'
import { surface } from '~/ui/surface'
import { VisuallyHidden } from '~/ui/visually-hidden'
import { fileRole, fileSource, nextTask, splitAccountNames, type AuditFile } from './audit-files'

export interface PasswordAuditImportProps {
  /** The company's names and brands, for the company-name pattern. */
  companyNames: readonly string[]
  /** The domain's minimum password length, as last known. */
  defaultPolicyMinLength?: number
  /** The company's reuse key (an HMAC key or at least 16 raw bytes), asked for when the audit runs. */
  getReuseKey: () => Promise<CryptoKey | Uint8Array>
  /** The derived audit, once the analyst has reviewed it. */
  onResult: (scan: ParsedScan) => void
}

type Run =
  | { state: 'idle' }
  | { state: 'running'; fraction: number; label: string }
  | { state: 'done'; scan: ParsedScan }
  | { state: 'failed'; message: string }

const ROLE_LABELS = { ntds: 'NTDS dump (secretsdump)', pot: 'Pot file (hashcat or John the Ripper)', unknown: 'Not recognised' } as const

/** Reading the files is most of the work; deriving the accounts' figures the rest. */
const READ_SHARE = 0.9

const Panel = styled.section`
  ${surface}
  padding: 20px;
  display: flex;
  flex-direction: column;
  gap: 16px;
`

const Privacy = styled.p`
  margin: 0;
  padding: 12px 14px;
  border-radius: 8px;
  background: var(--color-primary-soft);
`

const DropZone = styled.div<{ $over: boolean }>`
  ${dropZone}
`

const TextArea = styled.textarea`
  ${fieldControl}
  min-height: 96px;
  padding: 8px 12px;
`

const NumberInput = styled.input`
  ${fieldControl}
  min-height: 40px;
  padding: 0 12px;
  max-width: 120px;
`

const Figures = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(180px, 1fr));
  gap: 12px;
  margin: 0;

  div {
    ${surface}
    padding: 10px 12px;
  }
  dt {
    font-size: 13px;
    color: var(--color-text-muted);
  }
  dd {
    margin: 0;
    font-size: 20px;
    font-weight: 600;
  }
`

const ErrorText = styled.p`
  color: var(--color-danger);
  margin: 0;
`

const percent = (part: number, whole: number) => (whole === 0 ? '0 %' : `${Math.round((part / whole) * 100)} %`)

function Summary({ scan }: { scan: ParsedScan }) {
  const stats = scan.serviceStats?.service === 'password_cracking' ? scan.serviceStats : null
  if (!stats) return null
  const figures: [string, string][] = [
    ['Accounts audited', String(stats.accountsAudited)],
    ['Cracked', `${stats.cracked} (${percent(stats.cracked, stats.accountsAudited)})`],
    ['Privileged accounts cracked', String(stats.privilegedCracked)],
    [`Below ${stats.policyMinLength} characters`, String(stats.belowPolicy)],
    ['Username as password', String(stats.usernameAsPassword)],
    ['LM hashes', String(stats.lmHashes)],
    ['Reuse clusters', `${stats.reuseClusters} (largest ${stats.largestReuseCluster})`],
  ]
  const bySeverity = SEVERITIES.map((severity) => [severity, scan.findings.filter((f) => f.severity === severity).length] as const).filter(
    ([, count]) => count > 0,
  )
  const unmatched = scan.statistics.potFilesUnmatched ?? 0
  return (
    <>
      {unmatched > 0 && (
        <OutcomeMessage tone="warning" next="The import report below names them. Remove them, or add the pot files of this dump.">
          {unmatched === 1 ? 'One pot file cracks' : `${unmatched} pot files crack`} none of this dump’s hashes: is it from another audit?
        </OutcomeMessage>
      )}
      <Figures aria-label="Audit summary">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </Figures>
      <p>
        {scan.findings.length} findings
        {bySeverity.length > 0
          ? `: ${bySeverity.map(([severity, count]) => `${count} ${severityLabels[severity].toLowerCase()}`).join(', ')}`
          : ''}
        .{scan.statistics.historyEntries ? ` ${scan.statistics.historyEntries} password history entries were read for reuse only.` : ''}
      </p>
      {scan.notes.length > 0 && (
        <details>
          <summary>Import report: {scan.notes.length} notes</summary>
          <ul>
            {scan.notes.map((note, i) => (
              <li key={i}>
                {note.where}: {note.message} ({note.level})
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  )
}

export function PasswordAuditImport({ companyNames, defaultPolicyMinLength = 8, getReuseKey, onResult }: PasswordAuditImportProps) {
  const ids = { files: useId(), privileged: useId(), policy: useId(), hint: useId() }
  const [files, setFiles] = useState<AuditFile[]>([])
  const [privileged, setPrivileged] = useState('')
  const [policy, setPolicy] = useState(String(defaultPolicyMinLength))
  const [run, setRun] = useState<Run>({ state: 'idle' })

  const ntds = files.filter((f) => f.role === 'ntds')
  const pots = files.filter((f) => f.role === 'pot')
  const policyValue = Number(policy)
  const policyValid = policy.trim() !== '' && Number.isInteger(policyValue) && policyValue >= 0 && policyValue <= 256
  const problem =
    ntds.length === 0
      ? 'Add the NTDS dump.'
      : ntds.length > 1
        ? 'Add one NTDS dump at a time.'
        : !policyValid
          ? 'The policy minimum is a whole number of characters, 0 to 256.'
          : null

  async function addFiles(list: FileList | File[]) {
    const added = await Promise.all(Array.from(list, async (file) => ({ file, role: await fileRole(file) })))
    setFiles((current) => [...current.filter((f) => !added.some((a) => a.file.name === f.file.name)), ...added])
    setRun({ state: 'idle' })
  }

  async function analyse() {
    if (problem) return
    const total = [...ntds, ...pots].reduce((sum, f) => sum + f.file.size, 0) || 1
    let read = 0
    const onBytes = (bytes: number) => {
      read += bytes
      setRun({ state: 'running', fraction: (read / total) * READ_SHARE, label: 'Reading the files' })
    }
    setRun({ state: 'running', fraction: 0, label: 'Reading the files' })
    try {
      const scan = await importPasswordAudit({
        ntds: fileSource(ntds[0]!.file, onBytes),
        pots: pots.map((pot) => fileSource(pot.file, onBytes)),
        potNames: pots.map((pot) => pot.file.name),
        companyNames: [...companyNames],
        policyMinLength: policyValue,
        privilegedAccounts: splitAccountNames(privileged),
        reuseKey: await getReuseKey(),
        onProgress: async ({ done, total: accounts }) => {
          setRun({
            state: 'running',
            fraction: READ_SHARE + (done / Math.max(1, accounts)) * (1 - READ_SHARE),
            label: 'Deriving the figures',
          })
          await nextTask()
        },
      })
      setRun({ state: 'done', scan })
    } catch (error) {
      setRun({
        state: 'failed',
        message:
          error instanceof ScanParseError
            ? error.message
            : 'The files could not be read. Check that they are a secretsdump dump and pot files.',
      })
    }
  }

  const drop = useFileDrop((dropped) => void addFiles(dropped))

  return (
    <Panel aria-labelledby={`${ids.files}-title`}>
      <h2 id={`${ids.files}-title`}>Import a password audit</h2>
      <Privacy>
        Clear-text passwords never leave this browser. The files are read on this computer; only derived figures are uploaded: each
        account&apos;s password length, character classes, pattern tags and masked form, whether it is privileged, and a keyed hash that
        shows shared passwords without revealing them.
      </Privacy>

      <DropZone $over={drop.over} {...drop.handlers}>
        <p>Drop the secretsdump NTDS output and the hashcat or John the Ripper pot files here, or</p>
        <Label htmlFor={ids.files}>Choose files</Label>{' '}
        <input
          id={ids.files}
          type="file"
          multiple
          onChange={(event) => {
            if (event.target.files) void addFiles(event.target.files)
            event.target.value = ''
          }}
        />
      </DropZone>

      {files.length > 0 && (
        <ul aria-label="Files">
          {files.map(({ file, role }) => (
            <li key={file.name}>
              {file.name}: {ROLE_LABELS[role]}{' '}
              <Button type="button" $variant="secondary" onClick={() => setFiles((current) => current.filter((f) => f.file !== file))}>
                Remove <VisuallyHidden>{file.name}</VisuallyHidden>
              </Button>
            </li>
          ))}
        </ul>
      )}

      <Field>
        <Label htmlFor={ids.privileged}>Privileged accounts</Label>
        <TextArea
          id={ids.privileged}
          value={privileged}
          placeholder={'ACME\\administrator\nbwayne'}
          aria-describedby={`${ids.privileged}-hint`}
          onChange={(event) => setPrivileged(event.target.value)}
        />
        <small id={`${ids.privileged}-hint`}>
          Paste the members of Domain Admins, Enterprise Admins and other privileged groups, one a line. The built-in Administrator always
          counts.
        </small>
      </Field>

      <Field>
        <Label htmlFor={ids.policy}>Policy minimum length</Label>
        <NumberInput
          id={ids.policy}
          type="number"
          inputMode="numeric"
          min={0}
          max={256}
          value={policy}
          aria-invalid={!policyValid}
          onChange={(event) => setPolicy(event.target.value)}
        />
      </Field>

      <div>
        <Button
          type="button"
          onClick={() => void analyse()}
          disabled={problem !== null || run.state === 'running'}
          aria-describedby={ids.hint}
        >
          Analyse in this browser
        </Button>{' '}
        <span id={ids.hint}>{problem}</span>
      </div>

      {run.state === 'running' && (
        <Field>
          <Label as="span" id={`${ids.files}-progress`}>
            {run.label}
          </Label>
          <progress aria-labelledby={`${ids.files}-progress`} value={Math.round(run.fraction * 100)} max={100} />
        </Field>
      )}
      {run.state === 'failed' && <ErrorText role="alert">{run.message}</ErrorText>}
      {run.state === 'done' && (
        <>
          <h3>Derived summary</h3>
          <Summary scan={run.scan} />
          <div>
            <Button type="button" onClick={() => onResult(run.scan)}>
              Use this audit
            </Button>
          </div>
        </>
      )}
    </Panel>
  )
}
