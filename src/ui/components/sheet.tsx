/**
 * A modal panel: `placement="right"` is the side sheet (full height, full width on phones),
 * `placement="center"` a form dialog. Escape and the close button call `onClose`.
 */
import type { ReactNode } from 'react'
import { DialogFrame } from './dialog'

export function Sheet({
  placement = 'right',
  ...props
}: {
  open: boolean
  onClose: () => void
  title: ReactNode
  description?: ReactNode
  closeLabel: string
  placement?: 'right' | 'center'
  footer?: ReactNode
  children: ReactNode
  /** While something is being sent, the sheet stays open. */
  busy?: boolean
}) {
  return <DialogFrame variant={placement === 'center' ? 'form' : 'sheet'} {...props} />
}
