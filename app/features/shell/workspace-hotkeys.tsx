import { useState } from 'react'
import styled from 'styled-components'
import { definitionGrid } from '~/ui/layout'
import { useColorScheme } from '~/ui/color-scheme'
import { Dialog } from '~/ui/dialog'
import { formatHotkey, useHotkeys } from '~/ui/hotkeys'
import { media } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'

/** The workspace's keyboard shortcuts, in the order the help lists them. */
export const shortcuts = [
  { keys: 'mod+H', label: 'Show keyboard shortcuts' },
  { keys: 'mod+J', label: 'Switch between light and dark' },
  { keys: 'mod+M', label: 'Show or hide the menu' },
] as const

const Table = styled.dl`
  ${definitionGrid('10px 20px')}

  dt {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-weight: 600;
  }
`

/** Listens for the shortcuts while the workspace is shown, and owns the help dialog. */
export function WorkspaceHotkeys({ onToggleMenu }: { onToggleMenu: () => void }) {
  const [helpOpen, setHelpOpen] = useState(false)
  const { toggle } = useColorScheme()
  useHotkeys([
    { keys: 'mod+H', run: () => setHelpOpen(true) },
    { keys: 'mod+J', run: toggle },
    { keys: 'mod+M', run: onToggleMenu },
  ])
  return (
    <Dialog open={helpOpen} onOpenChange={setHelpOpen} title="Keyboard shortcuts" description="They work anywhere except while typing in a field.">
      <Table>
        {shortcuts.map((s) => (
          <div key={s.keys} style={{ display: 'contents' }}>
            <dt>{formatHotkey(s.keys)}</dt>
            <dd>{s.label}</dd>
          </div>
        ))}
      </Table>
    </Dialog>
  )
}

/** The footer's reminder of the help shortcut, in the reader's own platform's notation. */
export function HotkeyHint() {
  // The platform is known only in the browser; the server renders the generic form.
  const hydrated = useHydrated()
  return <Hint>Shortcuts: {hydrated ? formatHotkey('mod+H') : 'Ctrl+H'}</Hint>
}

// Phones have no keyboard shortcuts to speak of.
const Hint = styled.span`
  ${media.mobile} {
    display: none;
  }
`
