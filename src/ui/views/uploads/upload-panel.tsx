import { useSelector } from '@xstate/react'
import { lazy, Suspense } from 'react'
import { useAppActors } from '../../app-context'

const UploadPanelContent = lazy(() => import('./upload-panel-content'))
const UploadDialog = lazy(() => import('./upload-dialog'))

/**
 * Mounted once by the shell: the floating progress panel while there are uploads, and the upload
 * dialog while it is open (from the header menu or the dashboard's empty state). Both are fetched
 * the first time they are needed, so neither is in the dashboard's initial JavaScript.
 */
export function UploadPanel() {
  const { uploadQueue, uploadDialog } = useAppActors()
  if (!uploadQueue || !uploadDialog) return null
  return <UploadHost queue={uploadQueue} dialog={uploadDialog} />
}

function UploadHost({
  queue,
  dialog,
}: {
  queue: NonNullable<ReturnType<typeof useAppActors>['uploadQueue']>
  dialog: NonNullable<ReturnType<typeof useAppActors>['uploadDialog']>
}) {
  const hasUploads = useSelector(queue, (s) => s.context.uploads.length > 0)
  const dialogOpen = useSelector(dialog, (s) => s.hasTag('open'))
  return (
    <Suspense fallback={null}>
      {hasUploads ? <UploadPanelContent queue={queue} /> : null}
      {dialogOpen ? <UploadDialog dialog={dialog} /> : null}
    </Suspense>
  )
}
