import { useId, useState, type FormEvent } from 'react'
import { useLiveData } from '~/core/live-data'
import { Button } from '~/ui/button'
import { LiveStatus } from '~/ui/live-status'
import { Field, FormMessage, Label } from '~/ui/text-field'
import { NewPassphraseInput } from './new-passphrase-input'
import { Hint, Inline, Panel } from './vault-styles'

/**
 * The analyst's vault key: colleagues of an engagement can share request answers with them once it
 * is set up. The key pair is made in this browser; the server keeps the public key and the private
 * key wrapped under the vault passphrase.
 */
export function VaultKeyPanel({ uid }: { uid: string }) {
  const key = useLiveData(() => import('./vault-keys-client').then((client) => client.watchVaultKey(uid)), [uid])
  const passphraseId = useId()
  const [replacing, setReplacing] = useState(false)
  const [passphrase, setPassphrase] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await (await import('./vault-keys-client')).setUpVaultKey(uid, passphrase)
      setPassphrase('')
      setReplacing(false)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Your vault key could not be saved: try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Panel aria-labelledby="vault-key-title" aria-busy={key.status === 'loading'}>
      <h2 id="vault-key-title">Your vault key</h2>
      {key.status !== 'ready' ? (
        <LiveStatus live={key} what="your vault key" />
      ) : key.data && !replacing ? (
        <>
          <Hint role="status">
            Set up: the analysts of your engagements can share request answers with you. Fingerprint{' '}
            <code aria-label="Vault key fingerprint">{key.data.fingerprint}</code>
          </Hint>
          <div>
            <Button type="button" $variant="secondary" onClick={() => setReplacing(true)}>
              Replace my vault key
            </Button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} aria-label="Set up my vault key">
          <Hint>
            {key.data
              ? 'Answers already shared with your current key will not open with a new one.'
              : 'Set it up so that the analysts of your engagements can share request answers with you.'}
          </Hint>
          <Field>
            <Label htmlFor={passphraseId}>Vault passphrase for your key</Label>
            <Inline>
              <NewPassphraseInput id={passphraseId} value={passphrase} onChange={setPassphrase} />
              <Button type="submit" disabled={busy}>
                {busy ? 'Saving…' : 'Set up my vault key'}
              </Button>
            </Inline>
            <Hint>At least 8 characters. You need it to open what colleagues share with you; nobody can recover it for you.</Hint>
          </Field>
          {error && <FormMessage $tone="error">{error}</FormMessage>}
        </form>
      )}
    </Panel>
  )
}
