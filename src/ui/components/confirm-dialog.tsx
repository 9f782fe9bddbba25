import type { ReactNode } from 'react'
import { Button } from './button'
import { Dialog } from './dialog'

/** A modal question with two answers; closing it (Escape) answers no. */
export function ConfirmDialog(props: {
  open: boolean
  title: ReactNode
  description: ReactNode
  confirmLabel: ReactNode
  cancelLabel: ReactNode
  onConfirm: () => void
  onCancel: () => void
  /** The dialogs of destructive actions cannot be dismissed by clicking outside. */
  closeOnInteractOutside?: boolean
  danger?: boolean
}) {
  return (
    <Dialog.Root
      variant="alert"
      open={props.open}
      role="alertdialog"
      closeOnInteractOutside={props.closeOnInteractOutside ?? true}
      onOpenChange={(d) => !d.open && props.onCancel()}
    >
      <Dialog.Layer>
        <Dialog.Content>
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description>{props.description}</Dialog.Description>
          <Dialog.Actions>
            <Button variant="outline" onClick={props.onCancel}>
              {props.cancelLabel}
            </Button>
            <Button variant={props.danger ? 'danger' : 'solid'} onClick={props.onConfirm}>
              {props.confirmLabel}
            </Button>
          </Dialog.Actions>
        </Dialog.Content>
      </Dialog.Layer>
    </Dialog.Root>
  )
}
