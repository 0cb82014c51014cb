import styled from 'styled-components'
import { Dialog } from '~/ui/dialog'
import { formatHotkey } from '~/ui/hotkeys'
import { definitionGrid } from '~/ui/layout'

/** The workspace's keyboard shortcuts (workspace-hotkeys.tsx), in the order the help lists them. */
const shortcuts = [
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

/** The list of keyboard shortcuts (mod+H). */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Keyboard shortcuts"
      description="They work anywhere except while typing in a field."
    >
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
