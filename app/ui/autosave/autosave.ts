/**
 * The autosave state machine, without React, so every transition is testable with fake timers.
 *
 * Three values are tracked: what the person typed, the debounced value (typed, after a quiet
 * period), and the saved value (what the live document holds). The status follows from them:
 * - `pending`   (spinner) typed differs from debounced, or the saved value has differed from the
 *               debounced one for less than the lock delay (a save's echo is on its way);
 * - `saving`    (spinner) a save is in flight;
 * - `conflict`  (refresh-alert, accept / reject) the saved value changed elsewhere and has
 *               differed from the debounced one for longer than the lock delay: the field locks
 *               until the person accepts the saved value or rejects it;
 * - `rejected`  (red cross) they rejected it: their value stays in the field, unsaved, until they
 *               edit it again or save it explicitly;
 * - `failed`    (red cross) the last save failed or the value is invalid: the typed value stays;
 * - `synced`    (green check) all three agree.
 */
export type AutosaveStatus = 'synced' | 'pending' | 'saving' | 'conflict' | 'rejected' | 'failed'

export interface AutosaveSnapshot<T> {
  /** What the field shows. */
  value: T
  /** What the document holds. */
  saved: T
  status: AutosaveStatus
  /** Why the value was not saved (status `failed`). */
  error: string | null
}

export interface AutosaveOptions<T> {
  saved: T
  save: (value: T) => Promise<void>
  debounceMs: number
  lockMs: number
  equals?: (a: T, b: T) => boolean
  /** A message when the value must not be saved; it stays in the field with that message. */
  validate?: (value: T) => string | null
  /** Turns a save error into words for the person. */
  describeError?: (error: unknown) => string
}

export const DEFAULT_SAVE_ERROR = 'Not saved. Check your connection and try again.'

export class AutosaveController<T> {
  private typed: T
  private debounced: T
  private saved: T
  private savesInFlight = 0
  private saveGeneration = 0
  private locked = false
  private rejected = false
  private error: string | null = null
  private debounceTimer: ReturnType<typeof setTimeout> | undefined
  private lockTimer: ReturnType<typeof setTimeout> | undefined
  private snapshot: AutosaveSnapshot<T>
  private readonly listeners = new Set<() => void>()
  private readonly equals: (a: T, b: T) => boolean
  private readonly options: AutosaveOptions<T>

  constructor(options: AutosaveOptions<T>) {
    this.options = options
    this.typed = this.debounced = this.saved = options.saved
    this.equals = options.equals ?? Object.is
    this.snapshot = this.compute()
  }

  /** The person typed `value`; it is saved once they pause. */
  type(value: T): void {
    this.typed = value
    this.rejected = false
    clearTimeout(this.debounceTimer)
    this.debounceTimer = setTimeout(() => this.commit(), this.options.debounceMs)
    this.publish()
  }

  /** Saves what is typed now (Enter, leaving the field, or "save mine" after a reject). */
  flush(): void {
    clearTimeout(this.debounceTimer)
    // Nothing new typed and nothing to retry: leaving the field must not overwrite a value that
    // changed elsewhere.
    const retry = this.rejected || this.error !== null
    if (!retry && this.equals(this.typed, this.debounced)) return
    this.rejected = false
    this.commit()
  }

  /** The live document now holds `value`. */
  remote(value: T): void {
    if (this.equals(value, this.saved)) return
    this.saved = value
    // A new value from elsewhere asks again, even after an earlier reject.
    this.rejected = false
    this.followSaved()
    this.publish()
  }

  /** Take the saved value into the field. */
  accept(): void {
    clearTimeout(this.debounceTimer)
    this.typed = this.debounced = this.saved
    this.error = null
    this.rejected = false
    this.unlock()
    this.publish()
  }

  /** Keep the field's value without saving it. */
  reject(): void {
    this.rejected = true
    this.unlock()
    this.publish()
  }

  dispose(): void {
    clearTimeout(this.debounceTimer)
    clearTimeout(this.lockTimer)
    this.listeners.clear()
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): AutosaveSnapshot<T> => this.snapshot

  private commit(): void {
    this.debounced = this.typed
    if (this.equals(this.debounced, this.saved)) {
      this.error = null
      this.unlock()
      this.publish()
      return
    }
    const invalid = this.options.validate?.(this.debounced) ?? null
    if (invalid) {
      this.error = invalid
      this.publish()
      return
    }
    void this.runSave(this.debounced)
  }

  private async runSave(value: T): Promise<void> {
    const generation = ++this.saveGeneration
    this.savesInFlight += 1
    this.error = null
    this.unlock()
    this.publish()
    try {
      await this.options.save(value)
      if (generation === this.saveGeneration) {
        this.saved = value
        this.rejected = false
      }
    } catch (error) {
      if (generation === this.saveGeneration) this.error = this.options.describeError?.(error) ?? DEFAULT_SAVE_ERROR
    } finally {
      this.savesInFlight -= 1
      this.followSaved()
      this.publish()
    }
  }

  /** Starts or ends the lock after the saved value moved. */
  private followSaved(): void {
    if (this.equals(this.saved, this.debounced)) {
      this.rejected = false
      this.unlock()
    } else if (this.savesInFlight === 0 && !this.error && !this.locked && this.lockTimer === undefined) {
      this.lockTimer = setTimeout(() => {
        this.lockTimer = undefined
        if (this.savesInFlight === 0 && !this.equals(this.saved, this.debounced)) this.locked = true
        this.publish()
      }, this.options.lockMs)
    }
  }

  private unlock(): void {
    clearTimeout(this.lockTimer)
    this.lockTimer = undefined
    this.locked = false
  }

  private compute(): AutosaveSnapshot<T> {
    return { value: this.typed, saved: this.saved, status: this.status(), error: this.error }
  }

  private status(): AutosaveStatus {
    if (!this.equals(this.typed, this.debounced)) return 'pending'
    if (this.savesInFlight > 0) return 'saving'
    if (this.error) return 'failed'
    if (this.equals(this.debounced, this.saved)) return 'synced'
    if (this.rejected) return 'rejected'
    return this.locked ? 'conflict' : 'pending'
  }

  private publish(): void {
    const next = this.compute()
    const previous = this.snapshot
    if (
      next.status === previous.status &&
      next.error === previous.error &&
      this.equals(next.value, previous.value) &&
      this.equals(next.saved, previous.saved)
    ) {
      return
    }
    this.snapshot = next
    for (const listener of this.listeners) listener()
  }
}
