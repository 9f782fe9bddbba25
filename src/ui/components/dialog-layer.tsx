import { Dialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { dialogLayer } from 'styled-system/recipes'

const layers = {
  side: dialogLayer({ placement: 'side' }),
  center: dialogLayer({ placement: 'center' }),
  fill: dialogLayer({ placement: 'fill' }),
  start: dialogLayer({ placement: 'start' }),
}

/** What every modal shares inside its `Dialog.Root`: a portal, the dimmed backdrop and the positioner
 * that holds the content where `placement` says. */
export function DialogLayer({
  placement,
  children,
}: {
  placement: keyof typeof layers
  children: ReactNode
}) {
  return (
    <Portal>
      <Dialog.Backdrop className={layers[placement].backdrop} />
      <Dialog.Positioner className={layers[placement].positioner}>{children}</Dialog.Positioner>
    </Portal>
  )
}
