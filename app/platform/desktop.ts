// Whether the page runs inside the desktop shell, and the shell's commands. The Tauri API is
// imported only when a command is called, so the web app's pages carry none of it.

/** Tauri sets `isTauri` on the page's global before any script runs. */
export function isDesktopApp(): boolean {
  return (globalThis as { isTauri?: unknown }).isTauri === true
}

/** Calls one of the shell's commands (see desktop/src-tauri/src/main.rs). */
export async function invokeDesktop<T>(
  command: string,
  args?: Record<string, unknown> | Uint8Array,
  headers?: Record<string, string>,
): Promise<T> {
  const { invoke } = await import('@tauri-apps/api/core')
  return invoke<T>(command, args, headers ? { headers } : undefined)
}
