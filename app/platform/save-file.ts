// Where a file the person asked for goes. In the desktop app: the native save dialog. In a
// browser: a download, through a link with the `download` attribute on an object URL. Features
// call this one function and need not know which.
import { notify } from '~/ui/notifications/notifications'
import { invokeDesktop, isDesktopApp } from './desktop'

/** How long the object URL outlives the click: browsers read it after the click returns. */
const REVOKE_AFTER_MS = 60_000

export function saveFile(name: string, blob: Blob): void {
  if (isDesktopApp()) {
    void saveThroughDialog(name, blob)
    return
  }
  download(name, blob)
}

/** Resolves to whether the file was written (false when the person cancelled the dialog). */
export async function saveThroughDialog(name: string, blob: Blob): Promise<boolean> {
  try {
    const bytes = new Uint8Array(await blob.arrayBuffer())
    return await invokeDesktop<boolean>('save_file', bytes, { 'x-file-name': encodeURIComponent(name) })
  } catch {
    notify({ tone: 'error', title: 'File not saved', message: 'The file could not be written. Please try another folder.' })
    return false
  }
}

function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.append(link)
  try {
    link.click()
  } finally {
    link.remove()
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS)
  }
}
