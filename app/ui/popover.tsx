import { cloneElement, Suspense, useState, type ReactElement, type ReactNode } from 'react'
import { lazyPart } from './lazy-part'

// The popover's code comes when it is first wanted (hovering, focusing or pressing its trigger).
const loadPanel = () => import('./popover-panel')
const PopoverPanel = lazyPart(() => loadPanel().then((m) => ({ default: m.PopoverPanel })))

type TriggerProps = { onClick?: () => void; onPointerEnter?: () => void; onFocus?: () => void }

/** A popover that opens below its trigger (flipping only when there is no room), 8 px away. */
export function Popover({ trigger, label, children }: { trigger: ReactElement<TriggerProps>; label: string; children: ReactNode }) {
  const [wanted, setWanted] = useState(false)
  const [open, setOpen] = useState(false)
  const own = trigger.props
  const plain = cloneElement(trigger, {
    onPointerEnter: () => {
      own.onPointerEnter?.()
      void loadPanel()
    },
    onFocus: () => {
      own.onFocus?.()
      void loadPanel()
    },
    onClick: () => {
      setWanted(true)
      setOpen(true)
    },
  })
  if (!wanted) return plain
  return (
    <Suspense fallback={plain}>
      <PopoverPanel trigger={trigger} label={label} open={open} onOpenChange={setOpen}>
        {children}
      </PopoverPanel>
    </Suspense>
  )
}
