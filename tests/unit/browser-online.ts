// Going offline and back in a unit test's browser (happy-dom): what the page reads and hears.
import { vi } from 'vitest'

/** Sets `navigator.onLine` and fires the window's `online` or `offline` event; undone by `vi.restoreAllMocks()`. */
export function setBrowserOnline(online: boolean): void {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online)
  window.dispatchEvent(new Event(online ? 'online' : 'offline'))
}
