import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { timings } from '../theme'
import { AutosaveController, DEFAULT_SAVE_ERROR, type AutosaveOptions, type AutosaveSnapshot } from './autosave'

/** Text and tag fields save after a short pause; fields saved through a callback wait longer. */
export type AutosaveVariant = 'text' | 'tag' | 'callback'

const debounceMs: Record<AutosaveVariant, number> = {
  text: timings.autosaveDebounce,
  tag: timings.autosaveDebounce,
  callback: timings.autosaveCallbackDebounce,
}

export interface UseAutosaveOptions<T> extends Pick<AutosaveOptions<T>, 'equals' | 'validate' | 'describeError'> {
  /** The value the live document holds now. */
  saved: T
  save: (value: T) => Promise<void>
  variant: AutosaveVariant
}

export interface Autosave<T> extends AutosaveSnapshot<T> {
  type(value: T): void
  flush(): void
  accept(): void
  reject(): void
}

/** One autosaved value: follows the live document and saves what the person types. */
export function useAutosave<T>({ saved, save, variant, equals, validate, describeError }: UseAutosaveOptions<T>): Autosave<T> {
  // The latest callbacks, so a re-render with new closures does not restart the machine.
  const latest = useRef({ save, validate, describeError })
  useEffect(() => {
    latest.current = { save, validate, describeError }
  })
  const [controller] = useState(
    () =>
      new AutosaveController<T>({
        saved,
        save: (value) => latest.current.save(value),
        validate: (value) => latest.current.validate?.(value) ?? null,
        describeError: (error) => latest.current.describeError?.(error) ?? DEFAULT_SAVE_ERROR,
        debounceMs: debounceMs[variant],
        lockMs: timings.autosaveLock,
        equals,
      }),
  )
  useEffect(() => controller.remote(saved), [controller, saved])
  useEffect(() => () => controller.dispose(), [controller])
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot)
  return {
    ...snapshot,
    type: (value) => controller.type(value),
    flush: () => controller.flush(),
    accept: () => controller.accept(),
    reject: () => controller.reject(),
  }
}
