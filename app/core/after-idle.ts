// Work a page owes nobody right away (a cookie for the next visit, say) waits until the browser is
// idle, so it does not lengthen the tasks that make the page interactive.

/** Runs `work` once the browser is idle (within `timeout` ms at the latest); returns the cancel. */
export function afterIdle(work: () => void, timeout = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(() => work(), { timeout })
    return () => cancelIdleCallback(handle)
  }
  // Browsers without idle callbacks (WebKit): the next task.
  const handle = setTimeout(work, 0)
  return () => clearTimeout(handle)
}
