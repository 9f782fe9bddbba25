/**
 * The review's keyboard: Ctrl+Enter (⌘+Enter) is "Save and next" wherever the focus is; J / K open
 * the next / previous document and `?` lists the shortcuts, unless the focus is in a text field or a
 * menu (where the letters are typed). The keys only send events: the `documentEdit` actor decides
 * (it asks before unsaved changes are dropped, it saves or confirms before moving on).
 */
import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { useEffect } from 'react'
import { css } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { DocumentEditMachine } from '../../../machines/details/document-edit.machine'
import { Button } from '../../components/button'
import { Definitions } from '../../components/definitions'
import { Dialog } from '../../components/dialog'

type DocumentEditActor = ActorRefFrom<DocumentEditMachine>

/** Where a letter key is text, not a command: fields, editable content, menus and list boxes. */
const TYPING =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="menu"], [role="listbox"]'

function isTyping(target: EventTarget | null) {
  return target instanceof Element && !!target.closest(TYPING)
}

/** Listens for the review keys while the dialog's form runs. */
export function useReviewKeys(editor: DocumentEditActor | null) {
  useEffect(() => {
    if (!editor) return
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
        e.preventDefault()
        editor.send({ type: 'review.next' })
        return
      }
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return
      const key = e.key.toLowerCase()
      if (key === 'j' || key === 'k') {
        e.preventDefault()
        editor.send({ type: 'document.step', direction: key === 'j' ? 1 : -1 })
      } else if (e.key === '?') {
        e.preventDefault()
        editor.send({ type: 'help.open' })
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [editor])
}

/** The shortcuts, opened with `?` or the "Keyboard shortcuts" button. */
export function ShortcutsHelp({ actor }: { actor: DocumentEditActor }) {
  const { t } = useLingui()
  const open = useSelector(actor, (s) => s.matches({ open: { help: 'open' } }))
  const rows: [string, string][] = [
    [t`Ctrl+Enter`, t`Save and go to the next document (confirms it when nothing changed)`],
    [t`J`, t`Next document of the list`],
    [t`K`, t`Previous document of the list`],
    [
      t`Enter on the page`,
      t`Pick words on the page for the field focused last (arrows, Shift+arrows, Enter)`,
    ],
    [t`?`, t`Show these shortcuts`],
    [t`Escape`, t`Close`],
  ]
  return (
    <Dialog.Root
      variant="form"
      open={open}
      onOpenChange={(d) => !d.open && actor.send({ type: 'help.close' })}
    >
      <Dialog.Layer>
        <Dialog.Content>
          <Dialog.Bar>
            <Dialog.Heading>
              <Dialog.Title>{t`Keyboard shortcuts`}</Dialog.Title>
            </Dialog.Heading>
          </Dialog.Bar>
          <Dialog.Body>
            <Definitions rows={rows} term={(keys) => <kbd className={keyCap}>{keys}</kbd>} />
          </Dialog.Body>
          <Dialog.Actions>
            <Button variant="outline" onClick={() => actor.send({ type: 'help.close' })}>
              {t`Close shortcuts`}
            </Button>
          </Dialog.Actions>
        </Dialog.Content>
      </Dialog.Layer>
    </Dialog.Root>
  )
}

const keyCap = css({
  fontFamily: 'mono',
  fontSize: 'sm',
  px: '1.5',
  py: '0.5',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'sm',
  bg: 'bg.muted',
  whiteSpace: 'nowrap',
})
