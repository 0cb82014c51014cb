import { VAULT_PASSPHRASE_MIN_LENGTH } from '#domain/vault-crypto.ts'
import { Input } from './vault-styles'

/** A vault passphrase being chosen: hidden, offered to password managers as new, long enough. */
export function NewPassphraseInput({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <Input
      id={id}
      type="password"
      autoComplete="new-password"
      minLength={VAULT_PASSPHRASE_MIN_LENGTH}
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  )
}
