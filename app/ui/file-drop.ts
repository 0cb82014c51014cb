// Dropping files on an area: its handlers and whether files are over it, and its look.
import { useState, type DragEvent } from 'react'
import { css } from 'styled-components'

export function useFileDrop(onFiles: (files: FileList) => void) {
  const [over, setOver] = useState(false)
  return {
    over,
    handlers: {
      onDragOver(event: DragEvent) {
        event.preventDefault()
        setOver(true)
      },
      onDragLeave() {
        setOver(false)
      },
      onDrop(event: DragEvent) {
        event.preventDefault()
        setOver(false)
        onFiles(event.dataTransfer.files)
      },
    },
  }
}

export const dropZone = css<{ $over: boolean }>`
  border: 2px dashed ${({ $over }) => ($over ? 'var(--color-primary)' : 'var(--color-border)')};
  border-radius: 12px;
  padding: 20px;
  text-align: center;
  color: var(--color-text-muted);
`
