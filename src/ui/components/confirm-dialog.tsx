import { Dialog } from '@ark-ui/react/dialog'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { Button } from './button'
import { DialogLayer } from './dialog-layer'

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
      open={props.open}
      role="alertdialog"
      closeOnInteractOutside={props.closeOnInteractOutside ?? true}
      onOpenChange={(d) => !d.open && props.onCancel()}
    >
      <DialogLayer placement="center">
        <Dialog.Content
          className={css({
            bg: 'bg.surface',
            borderRadius: 'xl',
            boxShadow: 'xl',
            p: '6',
            w: 'full',
            maxW: 'md',
            display: 'flex',
            flexDirection: 'column',
            gap: '4',
          })}
        >
          <Dialog.Title className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
            {props.title}
          </Dialog.Title>
          <Dialog.Description className={css({ color: 'fg.muted', fontSize: 'sm' })}>
            {props.description}
          </Dialog.Description>
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
            <Button variant="outline" onClick={props.onCancel}>
              {props.cancelLabel}
            </Button>
            <Button variant={props.danger ? 'danger' : 'solid'} onClick={props.onConfirm}>
              {props.confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </DialogLayer>
    </Dialog.Root>
  )
}
