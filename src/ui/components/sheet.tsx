/**
 * A modal panel on Ark Dialog: `placement="right"` is the side sheet (full height, full width on
 * phones), `placement="center"` a form dialog. Escape and the close button call `onClose`.
 */
import { Dialog } from '@ark-ui/react/dialog'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { DialogLayer } from './dialog-layer'
import { CloseIcon } from './icons'

const content = {
  right: css({
    position: 'fixed',
    top: '0',
    right: '0',
    h: '100dvh',
    w: 'full',
    maxW: 'xl',
    bg: 'bg.surface',
    boxShadow: '2xl',
    display: 'flex',
    flexDirection: 'column',
    outline: 'none',
  }),
  center: css({
    bg: 'bg.surface',
    borderRadius: 'xl',
    boxShadow: 'xl',
    w: 'full',
    maxW: 'lg',
    maxH: 'calc(100dvh - 2rem)',
    display: 'flex',
    flexDirection: 'column',
    outline: 'none',
  }),
}

export function Sheet(props: {
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
  const placement = props.placement ?? 'right'
  return (
    <Dialog.Root
      open={props.open}
      lazyMount
      unmountOnExit
      closeOnInteractOutside={!props.busy}
      closeOnEscape={!props.busy}
      onOpenChange={(d) => !d.open && props.onClose()}
    >
      <DialogLayer placement={placement === 'center' ? 'center' : 'side'}>
        <Dialog.Content className={content[placement]} aria-busy={props.busy || undefined}>
          <header
            className={css({
              display: 'flex',
              alignItems: 'flex-start',
              justifyContent: 'space-between',
              gap: '4',
              px: '6',
              py: '4',
              borderBottomWidth: '1px',
              borderColor: 'border.default',
            })}
          >
            <div className={css({ display: 'flex', flexDirection: 'column', gap: '1', minW: '0' })}>
              <Dialog.Title className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
                {props.title}
              </Dialog.Title>
              {props.description ? (
                <Dialog.Description className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                  {props.description}
                </Dialog.Description>
              ) : null}
            </div>
            <Dialog.CloseTrigger
              className={button({ variant: 'ghost', size: 'icon' })}
              aria-label={props.closeLabel}
              disabled={props.busy}
            >
              <CloseIcon />
            </Dialog.CloseTrigger>
          </header>
          <div className={css({ flex: '1', overflowY: 'auto', px: '6', py: '5' })}>{props.children}</div>
          {props.footer ? (
            <footer
              className={css({
                display: 'flex',
                justifyContent: 'flex-end',
                gap: '2',
                px: '6',
                py: '4',
                borderTopWidth: '1px',
                borderColor: 'border.default',
                bg: 'bg.canvas',
              })}
            >
              {props.footer}
            </footer>
          ) : null}
        </Dialog.Content>
      </DialogLayer>
    </Dialog.Root>
  )
}
