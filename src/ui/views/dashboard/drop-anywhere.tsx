/**
 * Files dragged over any part of the dashboard can be dropped there: a veil says so while they are
 * over the window, and the drop opens the invoice/expense dialog with them added under Invoices.
 */
import { Trans } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { useAppActors } from '../../app-context'
import { UploadIcon } from '../../components/icons'

const carriesFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false

const veil = css({
  position: 'fixed',
  inset: '0',
  zIndex: 'overlay',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  bg: 'rgba(79, 70, 229, 0.08)',
  borderWidth: '3px',
  borderStyle: 'dashed',
  borderColor: 'accent.default',
  pointerEvents: 'none',
})

export function DropAnywhere() {
  const { uploadDialog } = useAppActors()
  const [over, setOver] = useState(false)
  useEffect(() => {
    if (!uploadDialog) return
    // dragenter/dragleave fire for every element crossed: count them to know when the files left.
    let depth = 0
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return
      depth += 1
      setOver(true)
    }
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return
      depth = Math.max(0, depth - 1)
      if (depth === 0) setOver(false)
    }
    const overWindow = (e: DragEvent) => {
      // Without this the browser would open the file in place of the app.
      if (carriesFiles(e)) e.preventDefault()
    }
    const drop = (e: DragEvent) => {
      depth = 0
      setOver(false)
      // The open dialog's drop zone took it already.
      const taken = e.defaultPrevented
      if (!carriesFiles(e)) return
      e.preventDefault()
      const files = [...(e.dataTransfer?.files ?? [])]
      if (files.length && !taken) uploadDialog.send({ type: 'files.drop', files })
    }
    window.addEventListener('dragenter', enter)
    window.addEventListener('dragleave', leave)
    window.addEventListener('dragover', overWindow)
    window.addEventListener('drop', drop)
    return () => {
      window.removeEventListener('dragenter', enter)
      window.removeEventListener('dragleave', leave)
      window.removeEventListener('dragover', overWindow)
      window.removeEventListener('drop', drop)
    }
  }, [uploadDialog])
  if (!over) return null
  return (
    <div className={veil} aria-hidden="true">
      <p
        className={css({
          display: 'flex',
          gap: '2',
          alignItems: 'center',
          bg: 'bg.surface',
          px: '5',
          py: '3',
          borderRadius: 'lg',
          boxShadow: 'lg',
          fontWeight: 'medium',
        })}
      >
        <UploadIcon />
        <Trans>Drop the files to upload them</Trans>
      </p>
    </div>
  )
}
