import { Suspense, useEffect, useState } from 'react'
import styled from 'styled-components'
import { useColorScheme } from '~/ui/color-scheme'
import { replayEarlyHotkeys } from '~/ui/color-scheme-script'
import { formatHotkey, useHotkeys } from '~/ui/hotkeys'
import { media } from '~/ui/theme'
import { useHydrated } from '~/ui/use-hydrated'
import { lazyPart } from '~/ui/lazy-part'

// The help is loaded the first time it is asked for: the first page stays small.
const ShortcutsDialog = lazyPart(() => import('./shortcuts-dialog').then((module) => ({ default: module.ShortcutsDialog })))

/** Listens for the shortcuts while the workspace is shown, and owns the help dialog. */
export function WorkspaceHotkeys({ onToggleMenu }: { onToggleMenu: () => void }) {
  const [helpOpen, setHelpOpen] = useState(false)
  const [helpWanted, setHelpWanted] = useState(false)
  const { toggle } = useColorScheme()
  useHotkeys([
    {
      keys: 'mod+H',
      run: () => {
        setHelpWanted(true)
        setHelpOpen(true)
      },
    },
    { keys: 'mod+J', run: toggle },
    { keys: 'mod+M', run: onToggleMenu },
  ])
  // After useHotkeys' own effect: its listener hears what was pressed while the page loaded.
  useEffect(replayEarlyHotkeys, [])
  return helpWanted ? (
    <Suspense fallback={null}>
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </Suspense>
  ) : null
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
