// The vault's file ledger as a Durable Object (binding VAULT_FILE_LEDGER, decision 0035): one
// object per link or request id, named `<kind>/<id>`, so all of an id's uploads, deletions and
// reviews run in one place, one at a time wherever they arrive. Its state lives in the object's
// storage; its alarm reviews the id's files when the gate's time runs out, so they go even when no
// one asks. app/server.tsx exports the class for the runtime.
import { DurableObject, type DurableObjectState } from 'cloudflare:workers'
import { FileLedger, type LedgerState, type R2BucketLike, type StoreInput } from './vault-file-ledger.server'
import { readFilesGate } from './vault-files-context.server'

const STATE_KEY = 'ledger'
/** An alarm that could not read the gate (Firestore out of reach) tries again this much later. */
const RETRY_MS = 3600_000

export class VaultFileLedger extends DurableObject<Record<string, unknown>> {
  private readonly ledger: FileLedger

  constructor(ctx: DurableObjectState, env: Record<string, unknown>) {
    super(ctx, env)
    const storage = ctx.storage
    this.ledger = new FileLedger({
      bucket: env.VAULT_FILES as R2BucketLike,
      gate: readFilesGate,
      storage: {
        load: () => storage.get<LedgerState>(STATE_KEY),
        save: (state) => storage.put(STATE_KEY, state),
        wakeAt: (at) => storage.setAlarm(at),
        async clear() {
          await storage.deleteAlarm()
          await storage.deleteAll()
        },
      },
    })
  }

  store(input: StoreInput) {
    return this.ledger.store(input)
  }

  remove(tokenHash: string | null) {
    return this.ledger.remove(tokenHash)
  }

  review() {
    return this.ledger.review()
  }

  async alarm(): Promise<void> {
    try {
      await this.ledger.review()
    } catch (error) {
      console.error('The vault file ledger could not review its files', error)
      await this.ctx.storage.setAlarm(Date.now() + RETRY_MS)
    }
  }
}
