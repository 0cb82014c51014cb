import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AutosaveController, type AutosaveOptions } from './autosave'

const DEBOUNCE = 250
const LOCK = 300

/** A save whose completion each test controls. */
function controllableSave() {
  const calls: { value: string; resolve: () => void; reject: (error: Error) => void }[] = []
  const save = vi.fn(
    (value: string) =>
      new Promise<void>((resolve, reject) => {
        calls.push({ value, resolve, reject })
      }),
  )
  return { save, calls }
}

function field(overrides: Partial<AutosaveOptions<string>> = {}) {
  const { save, calls } = controllableSave()
  const controller = new AutosaveController<string>({ saved: 'Ada', save, debounceMs: DEBOUNCE, lockMs: LOCK, ...overrides })
  const status = () => controller.getSnapshot().status
  return { controller, save, calls, status }
}

/** Lets promise callbacks (a save settling) run. */
const settle = () => vi.advanceTimersByTimeAsync(0)

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('autosave', () => {
  it('starts in sync with the saved value', () => {
    const { controller, status } = field()
    expect(status()).toBe('synced')
    expect(controller.getSnapshot()).toMatchObject({ value: 'Ada', saved: 'Ada', error: null })
  })

  it('shows the spinner while typing and saves once the person pauses for the debounce time', async () => {
    const { controller, save, calls, status } = field()
    controller.type('Ad')
    expect(status()).toBe('pending')
    vi.advanceTimersByTime(DEBOUNCE - 1)
    controller.type('Ada L')
    vi.advanceTimersByTime(DEBOUNCE - 1)
    expect(save).not.toHaveBeenCalled()
    expect(status()).toBe('pending')

    vi.advanceTimersByTime(1)
    expect(save).toHaveBeenCalledTimes(1)
    expect(save).toHaveBeenCalledWith('Ada L')
    expect(status()).toBe('saving')

    calls[0]!.resolve()
    await settle()
    expect(status()).toBe('synced')
    expect(controller.getSnapshot()).toMatchObject({ value: 'Ada L', saved: 'Ada L' })
  })

  it('uses the debounce it is given (2000 ms for the callback variant)', () => {
    const { controller, save } = field({ debounceMs: 2000 })
    controller.type('Grace')
    vi.advanceTimersByTime(1999)
    expect(save).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(save).toHaveBeenCalledWith('Grace')
  })

  it('does not save a value typed back to what is saved', () => {
    const { controller, save, status } = field()
    controller.type('Adam')
    controller.type('Ada')
    vi.advanceTimersByTime(DEBOUNCE)
    expect(save).not.toHaveBeenCalled()
    expect(status()).toBe('synced')
  })

  it('saves at once on flush (Enter or leaving the field)', () => {
    const { controller, save, status } = field()
    controller.type('Ada Lovelace')
    controller.flush()
    expect(save).toHaveBeenCalledWith('Ada Lovelace')
    expect(status()).toBe('saving')
    vi.advanceTimersByTime(DEBOUNCE)
    expect(save).toHaveBeenCalledTimes(1)
  })

  it('keeps the typed value and says why when a save fails, and saves again on the next edit', async () => {
    const { controller, calls, save, status } = field({ describeError: (error) => `Not saved: ${(error as Error).message}` })
    controller.type('Ada L')
    vi.advanceTimersByTime(DEBOUNCE)
    calls[0]!.reject(new Error('offline'))
    await settle()
    expect(status()).toBe('failed')
    expect(controller.getSnapshot()).toMatchObject({ value: 'Ada L', saved: 'Ada', error: 'Not saved: offline' })
    // A failure never turns into a conflict prompt.
    vi.advanceTimersByTime(LOCK * 2)
    expect(status()).toBe('failed')

    controller.type('Ada Lo')
    expect(status()).toBe('pending')
    vi.advanceTimersByTime(DEBOUNCE)
    expect(save).toHaveBeenLastCalledWith('Ada Lo')
    calls[1]!.resolve()
    await settle()
    expect(controller.getSnapshot()).toMatchObject({ status: 'synced', error: null, saved: 'Ada Lo' })
  })

  it('retries the failed value on flush', async () => {
    const { controller, calls, save, status } = field()
    controller.type('Ada L')
    vi.advanceTimersByTime(DEBOUNCE)
    calls[0]!.reject(new Error('offline'))
    await settle()
    controller.flush()
    expect(save).toHaveBeenCalledTimes(2)
    calls[1]!.resolve()
    await settle()
    expect(status()).toBe('synced')
  })

  it('refuses an invalid value without saving it', () => {
    const { controller, save, status } = field({ validate: (value) => (value.length > 5 ? 'At most 5 characters' : null) })
    controller.type('Ada Lovelace')
    vi.advanceTimersByTime(DEBOUNCE)
    expect(save).not.toHaveBeenCalled()
    expect(status()).toBe('failed')
    expect(controller.getSnapshot()).toMatchObject({ value: 'Ada Lovelace', error: 'At most 5 characters' })
  })

  it('takes the echo of its own save without asking', async () => {
    const { controller, calls, status } = field()
    controller.type('Ada L')
    vi.advanceTimersByTime(DEBOUNCE)
    // The live listener reports the local write before the server confirms it.
    controller.remote('Ada L')
    expect(status()).toBe('saving')
    calls[0]!.resolve()
    await settle()
    vi.advanceTimersByTime(LOCK)
    expect(status()).toBe('synced')
  })

  it('leaving the field without a new edit does not save over a value changed elsewhere', () => {
    const { controller, save, status } = field()
    controller.remote('Grace')
    controller.flush()
    vi.advanceTimersByTime(LOCK)
    controller.flush()
    expect(save).not.toHaveBeenCalled()
    expect(status()).toBe('conflict')
  })

  it('locks into a conflict when the saved value changes elsewhere for longer than the lock delay', () => {
    const { controller, status } = field()
    controller.remote('Grace')
    expect(status()).toBe('pending')
    vi.advanceTimersByTime(LOCK - 1)
    expect(status()).toBe('pending')
    vi.advanceTimersByTime(1)
    expect(status()).toBe('conflict')
    expect(controller.getSnapshot()).toMatchObject({ value: 'Ada', saved: 'Grace' })
  })

  it('does not lock when the saved value comes back within the lock delay', () => {
    const { controller, status } = field()
    controller.remote('Grace')
    vi.advanceTimersByTime(LOCK - 1)
    controller.remote('Ada')
    vi.advanceTimersByTime(LOCK)
    expect(status()).toBe('synced')
  })

  it('accept takes the saved value into the field', () => {
    const { controller, save, status } = field()
    controller.remote('Grace')
    vi.advanceTimersByTime(LOCK)
    controller.accept()
    expect(status()).toBe('synced')
    expect(controller.getSnapshot().value).toBe('Grace')
    vi.advanceTimersByTime(DEBOUNCE * 4)
    expect(save).not.toHaveBeenCalled()
  })

  it('reject keeps the field value unsaved with a red cross until the next edit saves it', async () => {
    const { controller, save, calls, status } = field()
    controller.remote('Grace')
    vi.advanceTimersByTime(LOCK)
    controller.reject()
    expect(status()).toBe('rejected')
    expect(controller.getSnapshot()).toMatchObject({ value: 'Ada', saved: 'Grace' })
    vi.advanceTimersByTime(LOCK * 4)
    expect(status()).toBe('rejected')
    expect(save).not.toHaveBeenCalled()

    controller.type('Ada!')
    vi.advanceTimersByTime(DEBOUNCE)
    expect(save).toHaveBeenCalledWith('Ada!')
    calls[0]!.resolve()
    await settle()
    expect(status()).toBe('synced')
  })

  it('a rejected value can be saved over the other one explicitly', async () => {
    const { controller, save, calls, status } = field()
    controller.remote('Grace')
    vi.advanceTimersByTime(LOCK)
    controller.reject()
    controller.flush()
    expect(save).toHaveBeenCalledWith('Ada')
    calls[0]!.resolve()
    await settle()
    expect(status()).toBe('synced')
    expect(controller.getSnapshot().saved).toBe('Ada')
  })

  it('asks again when yet another value arrives after a reject', () => {
    const { controller, status } = field()
    controller.remote('Grace')
    vi.advanceTimersByTime(LOCK)
    controller.reject()
    controller.remote('Hedy')
    expect(status()).toBe('pending')
    vi.advanceTimersByTime(LOCK)
    expect(status()).toBe('conflict')
  })

  it('a change arriving while saving does not prompt; the completed save is what is saved', async () => {
    const { controller, calls, status } = field()
    controller.type('Ada L')
    vi.advanceTimersByTime(DEBOUNCE)
    controller.remote('Grace')
    vi.advanceTimersByTime(LOCK)
    expect(status()).toBe('saving')
    calls[0]!.resolve()
    await settle()
    expect(status()).toBe('synced')
    expect(controller.getSnapshot().saved).toBe('Ada L')
  })

  it('only the latest of overlapping saves decides the outcome', async () => {
    const { controller, calls, status } = field()
    controller.type('A1')
    vi.advanceTimersByTime(DEBOUNCE)
    controller.type('A2')
    vi.advanceTimersByTime(DEBOUNCE)
    expect(calls.map((call) => call.value)).toEqual(['A1', 'A2'])
    calls[1]!.resolve()
    await settle()
    expect(status()).toBe('saving')
    calls[0]!.reject(new Error('late failure of an older save'))
    await settle()
    expect(controller.getSnapshot()).toMatchObject({ status: 'synced', saved: 'A2', error: null })
  })

  it('compares values with the given equality (tag lists)', async () => {
    const save = vi.fn(() => Promise.resolve())
    const controller = new AutosaveController<string[]>({
      saved: ['xss'],
      save,
      debounceMs: DEBOUNCE,
      lockMs: LOCK,
      equals: (a, b) => a.length === b.length && a.every((tag, i) => tag === b[i]),
    })
    controller.remote(['xss'])
    expect(controller.getSnapshot().status).toBe('synced')
    controller.type(['xss', 'csrf'])
    vi.advanceTimersByTime(DEBOUNCE)
    await settle()
    expect(save).toHaveBeenCalledWith(['xss', 'csrf'])
    expect(controller.getSnapshot().status).toBe('synced')
  })

  it('notifies subscribers on changes only and stops its timers when disposed', () => {
    const { controller, save } = field()
    const listener = vi.fn()
    controller.subscribe(listener)
    controller.type('Ad')
    controller.type('A')
    expect(listener).toHaveBeenCalledTimes(2)
    controller.remote('Ada')
    expect(listener).toHaveBeenCalledTimes(2)
    controller.dispose()
    vi.advanceTimersByTime(DEBOUNCE * 4)
    expect(save).not.toHaveBeenCalled()
  })
})
