import { useSelector } from '@xstate/react'
import { Suspense, useEffect } from 'react'
import { useAppActors } from '../../app-context'
import { lazyRetrying } from '../../lazy-retrying'

const loadPanelContent = () => import('./upload-panel-content')
const UploadPanelContent = lazyRetrying(loadPanelContent)
const UploadDialog = lazyRetrying(() => import('./upload-dialog'))

/**
 * Mounted once by the shell: the floating progress panel while there are uploads, and the upload
 * dialog while it is open (from the header menu or the dashboard's empty state). Both are fetched
 * the first time they are needed (the panel's as the dialog opens), so neither is in the dashboard's
 * initial JavaScript; a chunk the network cannot deliver is fetched again once it is back.
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
  // The panel's code comes with the intent to upload: a connection lost after the dialog opened
  // still lets the panel show the files it keeps and that it waits for the network.
  useEffect(() => {
    if (dialogOpen) void loadPanelContent().catch(() => undefined)
  }, [dialogOpen])
  return (
    <Suspense fallback={null}>
      {hasUploads ? <UploadPanelContent queue={queue} /> : null}
      {dialogOpen ? <UploadDialog dialog={dialog} /> : null}
    </Suspense>
  )
}
