import { useId, useState, type FormEvent } from 'react'
import { formatWhen, useNow } from './link-time'
import type { VaultPayload } from '#domain/vault-crypto.ts'
import { requestStatus, type RequestStatus, type VaultRequest, type VaultRequestShare } from '#domain/vault-requests.ts'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { ListCap } from '~/ui/list-cap'
import { LiveStatus } from '~/ui/live-status'
import { FormMessage } from '~/ui/text-field'
import { CopyButton } from './copy-button'
import { FileLinks } from './reveal-share'
import type { OpenedFile } from './vault-files-client'
import { EntryHead, EntryList, Hint, Inline, Input, Panel, TextArea } from './vault-styles'

const STATUS_LABEL: Record<RequestStatus, string> = { waiting: 'Waiting', answered: 'Answered', expired: 'Expired', revoked: 'Withdrawn' }

/**
 * The analyst's requests, live: an answer appears the moment the client sends it, and opens here.
 * Below them, the requests of the selected company its other analysts shared with them.
 */
export function RequestsList({ uid, company }: { uid: string; company: { slug: string; companyName: string } | null }) {
  const requests = useLiveData(() => import('./vault-requests-live').then((live) => live.watchVaultRequests(uid)), [uid])
  const now = useNow()
  return (
    <>
      <Panel aria-labelledby="requests-title" aria-busy={requests.status === 'loading'}>
        <h2 id="requests-title">Your requests</h2>
        {requests.status !== 'ready' ? (
          <LiveStatus live={requests} what="your requests" />
        ) : requests.data.items.length === 0 ? (
          <Hint>No requests yet.</Hint>
        ) : (
          <>
            <EntryList>
              {requests.data.items.map((request) => (
                <RequestRow key={request.id} request={request} status={requestStatus(request, now)} uid={uid} />
              ))}
            </EntryList>
            <ListCap shown={requests.data.items.length} what="requests" onMore={requests.data.more} loading={requests.data.loading} />
          </>
        )}
      </Panel>
      {company && <TeamRequestsList uid={uid} company={company} now={now} />}
    </>
  )
}

function TeamRequestsList({ uid, company, now }: { uid: string; company: { slug: string; companyName: string }; now: number }) {
  const requests = useLiveData(
    () => import('./vault-requests-live').then((live) => live.watchTeamVaultRequests(uid, company.slug)),
    [uid, company.slug],
  )
  return (
    <Panel aria-labelledby="team-requests-title" aria-busy={requests.status === 'loading'}>
      <h2 id="team-requests-title">Shared with you for {company.companyName}</h2>
      {requests.status !== 'ready' ? (
        <LiveStatus live={requests} what="the requests shared with you" />
      ) : requests.data.items.length === 0 ? (
        <Hint>No other analyst of this engagement has shared a request with you.</Hint>
      ) : (
        <>
          <EntryList>
            {requests.data.items.map((request) => (
              <RequestRow key={request.id} request={request} status={requestStatus(request, now)} uid={uid} />
            ))}
          </EntryList>
          <ListCap shown={requests.data.items.length} what="shared requests" onMore={requests.data.more} loading={requests.data.loading} />
        </>
      )}
    </Panel>
  )
}

/** A request of the analyst's own, or the share of one a colleague shared with them. */
function RequestRow({ request, status, uid }: { request: VaultRequest | VaultRequestShare; status: RequestStatus; uid: string }) {
  const mine = request.createdBy === uid
  const passphraseId = useId()
  const [passphrase, setPassphrase] = useState('')
  const [opened, setOpened] = useState<{ payload: VaultPayload; files: OpenedFile[] } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function reveal(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      setOpened(await (await import('./request-seal')).openRequestAnswer(request, uid, passphrase))
      setPassphrase('')
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The answer could not be opened.')
    } finally {
      setBusy(false)
    }
  }

  async function withdraw() {
    setBusy(true)
    setError(null)
    try {
      await (await import('./request-seal')).withdrawRequest(request.id)
      setOpened(null)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The request could not be withdrawn.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <li aria-label={request.label}>
      <EntryHead>
        <strong>{request.label}</strong>
        <span data-status={status}>{STATUS_LABEL[status]}</span>
      </EntryHead>
      <Hint>
        {request.companyName || request.company} · asked {mine ? '' : `by ${request.createdByName || 'a colleague'} `}
        {formatWhen(request.createdAt)} · link valid until {formatWhen(request.expiresAt)}
      </Hint>
      {mine && request.team && (
        <Hint>
          {request.teamUids.length > 0
            ? `The engagement’s analysts can open it too (${request.teamUids.length} with a vault key).`
            : 'Shared with the engagement, but no colleague had a vault key: only you can open it.'}
        </Hint>
      )}
      {request.answeredAt !== null && (
        <Hint>
          Answered {formatWhen(request.answeredAt)} from {request.answeredFrom?.ip || 'an unknown address'},{' '}
          {request.answeredFrom?.browser || 'unknown browser'}
        </Hint>
      )}
      {status === 'answered' && !opened && (
        <Inline as="form" onSubmit={reveal} aria-label={`Open the answer to ${request.label}`}>
          <Input
            id={passphraseId}
            type="password"
            aria-label="Vault passphrase"
            autoComplete="current-password"
            required
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Opening…' : 'Reveal'}
          </Button>
        </Inline>
      )}
      {opened && (
        <>
          {(opened.payload.text !== '' || opened.files.length === 0) && (
            <>
              <TextArea readOnly value={opened.payload.text} aria-label={`Answer to ${request.label}`} spellCheck={false} />
              <div>
                <CopyButton text={opened.payload.text} label="Copy answer" />
              </div>
            </>
          )}
          {opened.files.length > 0 && <FileLinks files={opened.files} />}
        </>
      )}
      {mine && status !== 'revoked' && (
        <div>
          <Button type="button" $variant="secondary" disabled={busy} onClick={() => void withdraw()}>
            {status === 'answered' ? 'Delete the answer' : 'Withdraw'}
          </Button>
        </div>
      )}
      {error && <FormMessage $tone="error">{error}</FormMessage>}
    </li>
  )
}
