/**
 * Ark Dialog styled by the `dialog` slot recipe: `<Dialog.Root variant="…">` picks the frame (sheet,
 * form, detail, alert, drawer), its parts take their slot's class. `DialogFrame` is the frame with a
 * title bar (title, description, close button), a scrolling body and an optional footer.
 */
import { Dialog as ArkDialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { button, dialog } from 'styled-system/recipes'
import { CloseIcon } from './icons'
import { createStyleContext } from './style-context'

const { withProvider, withContext } = createStyleContext(dialog)

const Backdrop = withContext(ArkDialog.Backdrop, 'backdrop')
const Positioner = withContext(ArkDialog.Positioner, 'positioner')

/** A portal with the dimmed backdrop and the positioner that holds the content. */
function Layer({ children }: { children: ReactNode }) {
  return (
    <Portal>
      <Backdrop />
      <Positioner>{children}</Positioner>
    </Portal>
  )
}

/** The close button of a title bar (an icon, labelled by `label`). */
function CloseButton({ label, disabled }: { label: string; disabled?: boolean | undefined }) {
  return (
    <ArkDialog.CloseTrigger
      className={button({ variant: 'ghost', size: 'icon' })}
      aria-label={label}
      disabled={disabled}
    >
      <CloseIcon />
    </ArkDialog.CloseTrigger>
  )
}

export const Dialog = {
  Root: withProvider(ArkDialog.Root),
  Layer,
  Content: withContext(ArkDialog.Content, 'content'),
  Header: withContext('header', 'header'),
  /** The title bar as a plain box (no banner landmark). */
  Bar: withContext('div', 'header'),
  Heading: withContext('div', 'heading'),
  Title: withContext(ArkDialog.Title, 'title'),
  Description: withContext(ArkDialog.Description, 'description'),
  CloseButton,
  Body: withContext('div', 'body'),
  Footer: withContext('footer', 'footer'),
  /** The answers of a question (a plain box). */
  Actions: withContext('div', 'footer'),
}

/**
 * A modal with a title bar, a scrolling body and an optional footer. Escape, a click outside and the
 * close button call `onClose`, except while `busy` (something is being sent).
 */
export function DialogFrame(props: {
  variant: 'sheet' | 'form' | 'detail'
  open: boolean
  onClose: () => void
  title: ReactNode
  description?: ReactNode
  closeLabel: string
  footer?: ReactNode
  children: ReactNode
  busy?: boolean | undefined
}) {
  return (
    <Dialog.Root
      variant={props.variant}
      open={props.open}
      lazyMount
      unmountOnExit
      closeOnInteractOutside={!props.busy}
      closeOnEscape={!props.busy}
      // An element that takes Escape itself (`data-own-escape`, such as a page being picked from).
      onEscapeKeyDown={(e) => {
        if (e.target instanceof Element && e.target.closest('[data-own-escape]')) e.preventDefault()
      }}
      onOpenChange={(d) => !d.open && props.onClose()}
    >
      <Dialog.Layer>
        <Dialog.Content aria-busy={props.busy || undefined}>
          <Dialog.Header>
            <Dialog.Heading>
              <Dialog.Title>{props.title}</Dialog.Title>
              {props.description ? <Dialog.Description>{props.description}</Dialog.Description> : null}
            </Dialog.Heading>
            <Dialog.CloseButton label={props.closeLabel} disabled={props.busy} />
          </Dialog.Header>
          <Dialog.Body>{props.children}</Dialog.Body>
          {props.footer ? <Dialog.Footer>{props.footer}</Dialog.Footer> : null}
        </Dialog.Content>
      </Dialog.Layer>
    </Dialog.Root>
  )
}
