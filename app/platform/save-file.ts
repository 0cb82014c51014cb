// Where a file the person asked for goes. In a browser: a download, through a link with the
// `download` attribute on an object URL. Features call this one function, so the desktop shell can
// route downloads to its own save dialog here without touching them.

/** How long the object URL outlives the click: browsers read it after the click returns. */
const REVOKE_AFTER_MS = 60_000

export function saveFile(name: string, blob: Blob): void {
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
