// Import: the analyst drops or picks scanner files; each is recognised by its content and parsed
// in the browser with a progress bar, then the draft is created and filled batch by batch. Password
// audits go through their own panel, which derives the figures before anything is sent.
import { useId, useRef, useState } from 'react'
import styled from 'styled-components'
import { sha256 } from '@noble/hashes/sha256'
import { bytesToHex } from '@noble/hashes/utils'
import type { ParsedScan } from '#domain/scan-import/parsed-scan.ts'
import { scopeTargets } from '#domain/scans.ts'
import type { ServiceId } from '#domain/services.ts'
import { writeCheckMessages } from '~/core/call-until-known'
import { Button } from '~/ui/button'
import { dropZone, useFileDrop } from '~/ui/file-drop'
import { OutcomeMessage } from '~/ui/outcome-message'
import { Field, Label, Select } from '~/ui/text-field'
import { surface } from '~/ui/surface'
import { PasswordAuditImport } from '../password-audit/password-audit-import'
import { callAnalyst, failureMessage } from './analyst-calls'
import { draftTitle, keepRawFiles, parseFile, recogniseFile, uploadImport, type ParsedFile, type ScopeChoice } from './scan-files'

const Panel = styled.section`
  ${surface}
  padding: 18px 20px;
  display: flex;
  flex-direction: column;
  gap: 14px;

  h2 {
    font-size: 17px;
    font-weight: 650;
    margin: 0;
  }
`

const DropZone = styled.label<{ $over: boolean }>`
  ${dropZone}
  display: block;
  cursor: pointer;

  &:focus-within {
    outline: 2px solid var(--color-primary);
    outline-offset: 2px;
  }
  input {
    position: absolute;
    opacity: 0;
    width: 1px;
    height: 1px;
  }
  strong {
    color: var(--color-primary);
  }
`

const TitleInput = styled.input`
  min-height: 38px;
  padding: 0 10px;
  border: 1px solid var(--color-border);
  border-radius: 8px;
  background: var(--color-surface);
  color: var(--color-text);
  font: inherit;
`

const Status = styled.p<{ $tone?: 'error' | 'success' }>`
  margin: 0;
  color: ${({ $tone }) => ($tone === 'error' ? 'var(--color-danger)' : $tone === 'success' ? 'var(--color-success, inherit)' : 'inherit')};
`

type Run =
  | { state: 'idle' }
  | { state: 'running'; label: string; done: number; total: number; checking?: boolean }
  | { state: 'done'; scanId: string; created: boolean; notKept?: string[] }
  | { state: 'failed'; message: string }

/** A scope some published scan of the service has, and whether its scans are side scans. */
export interface PublishedScope {
  key: string
  side: boolean
}

export interface ImportPanelProps {
  company: string
  companyName: string
  service: ServiceId
  /** The scopes of the service's published scans, newest first: what a draft may compare with. */
  scopes: readonly PublishedScope[]
  /** Shows the draft the import made (or the scan these files made before). */
  onImported(scanId: string): void
}

export function ImportPanel(props: ImportPanelProps) {
  return props.service === 'password_cracking' ? <PasswordAuditPanel {...props} /> : <FilesPanel {...props} />
}

/** A call's answer did not come: the run says so until its next step (which resets it). */
const checkingRun = (run: Run): Run =>
  run.state === 'running'
    ? { ...run, checking: true }
    : { state: 'running', label: 'Creating the draft', done: 0, total: 0, checking: true }

function RunStatus({ run, progressId }: { run: Run; progressId: string }) {
  if (run.state === 'running')
    return (
      <div>
        <Label as="span" id={progressId}>
          {run.label}
        </Label>
        <progress aria-labelledby={progressId} value={run.total ? Math.round((run.done / run.total) * 100) : 0} max={100} />
        {run.checking && <OutcomeMessage tone="warning">{writeCheckMessages.checking}</OutcomeMessage>}
      </div>
    )
  if (run.state === 'failed')
    return (
      <Status role="alert" $tone="error">
        {run.message}
      </Status>
    )
  if (run.state === 'done')
    return (
      <>
        <Status role="status" $tone="success">
          {run.created
            ? 'The draft is ready for review below.'
            : 'These files were imported before: nothing changed. Their scan is shown below.'}
        </Status>
        {run.notKept && run.notKept.length > 0 && <Status role="alert">The raw file was not kept: {run.notKept.join(', ')}.</Status>}
      </>
    )
  return null
}

function FilesPanel({ company, service, scopes, onImported }: ImportPanelProps) {
  const ids = { input: useId(), title: useId(), progress: useId(), scope: useId() }
  const [scope, setScope] = useState('own')
  const [files, setFiles] = useState<File[]>([])
  const [title, setTitle] = useState('')
  const [run, setRun] = useState<Run>({ state: 'idle' })
  const checking = () => setRun(checkingRun)
  const input = useRef<HTMLInputElement>(null)
  const busy = run.state === 'running'

  const pick = (list: FileList | null) => {
    setFiles(list ? [...list] : [])
    setRun({ state: 'idle' })
  }
  const drop = useFileDrop(pick)

  async function start() {
    const parsed: ParsedFile[] = []
    try {
      for (const file of files) {
        const parser = await recogniseFile(file, service)
        parsed.push(
          await parseFile(file, parser, (done, total, label) =>
            setRun({ state: 'running', label: `${label} (${parser.label})`, done, total }),
          ),
        )
      }
      const choice: ScopeChoice = scope === 'own' ? { kind: 'own' } : scope === 'new' ? { kind: 'new' } : { kind: 'key', key: scope }
      const result = await uploadImport(
        company,
        service,
        title.trim() || draftTitle(parsed),
        parsed,
        (done, total, label) => setRun({ state: 'running', label, done, total }),
        choice,
        checking,
      )
      const notKept = await keepRawFiles(
        company,
        result.scanId,
        files.map((blob, i) => ({ blob, file: parsed[i]!.file })),
        service,
        (done, total, label) => setRun({ state: 'running', label, done, total }),
      )
      setRun({ state: 'done', ...result, notKept })
      setFiles([])
      if (input.current) input.current.value = ''
      onImported(result.scanId)
    } catch (error) {
      setRun({ state: 'failed', message: await failureMessage(error) })
    }
  }

  return (
    <Panel aria-labelledby={`${ids.input}-heading`}>
      <h2 id={`${ids.input}-heading`}>Import scanner output</h2>
      <DropZone $over={drop.over} {...drop.handlers}>
        <input ref={input} id={ids.input} type="file" multiple disabled={busy} onChange={(event) => pick(event.target.files)} />
        {files.length ? (
          <span>{files.map((f) => f.name).join(', ')}</span>
        ) : (
          <span>
            Drop files here or <strong>choose files</strong>. The format is recognised from the content.
          </span>
        )}
      </DropZone>
      <Field>
        <Label htmlFor={ids.title}>Scan title (optional)</Label>
        <TitleInput
          id={ids.title}
          value={title}
          maxLength={200}
          onChange={(event) => setTitle(event.target.value)}
          placeholder="Named after the tools and the day"
        />
      </Field>
      <Field>
        <Label htmlFor={ids.scope}>Compare with</Label>
        <Select id={ids.scope} value={scope} onChange={(event) => setScope(event.target.value)}>
          <option value="own">
            {scopes.length ? 'Earlier scans of the same targets (none: a side scan)' : 'Nothing yet: the first scan'}
          </option>
          {scopes.map(({ key, side }) => (
            <option key={key} value={key}>
              Scans of {scopeTargets(key)} ({side ? 'side scans' : 'whole service'})
            </option>
          ))}
          <option value="new">Nothing: a new scope</option>
        </Select>
      </Field>
      <div>
        <Button type="button" disabled={busy || files.length === 0} onClick={() => void start()}>
          {busy ? 'Importing…' : 'Import as draft'}
        </Button>
      </div>
      <RunStatus run={run} progressId={ids.progress} />
    </Panel>
  )
}

function PasswordAuditPanel({ company, companyName, onImported }: ImportPanelProps) {
  const progressId = useId()
  const [run, setRun] = useState<Run>({ state: 'idle' })
  const checking = () => setRun(checkingRun)

  async function upload(scan: ParsedScan) {
    // The audit's identity: its derived result (the same dump and pot files give the same one).
    const digest = bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(scan))))
    try {
      const result = await uploadImport(
        company,
        'password_cracking',
        `Password audit of ${new Date().toISOString().slice(0, 10)}`,
        [
          {
            file: {
              name: 'Password audit (derived in the browser)',
              sha256: digest,
              size: 0,
              format: 'ntds_potfile',
              tool: scan.tool.name || 'secretsdump',
              toolVersion: scan.tool.version,
            },
            scan,
          },
        ],
        (done, total, label) => setRun({ state: 'running', label, done, total }),
        undefined,
        checking,
      )
      setRun({ state: 'done', ...result })
      onImported(result.scanId)
    } catch (error) {
      setRun({ state: 'failed', message: await failureMessage(error) })
    }
  }

  const getReuseKey = async () => {
    const { key } = await callAnalyst('getPasswordReuseKey', { company })
    return Uint8Array.from(key.match(/../g)!.map((byte) => parseInt(byte, 16)))
  }

  return (
    <Panel aria-label="Import a password audit">
      <PasswordAuditImport companyNames={[companyName, company]} getReuseKey={getReuseKey} onResult={(scan) => void upload(scan)} />
      <RunStatus run={run} progressId={progressId} />
    </Panel>
  )
}
