import { useLingui } from '@lingui/react/macro'
import { button } from 'styled-system/recipes'
import { UploadIcon } from '../../components/icons'
import { LazyOnIntent, popupChunk, StandInButton } from '../../components/lazy-on-intent'
import { uploadLabel } from './upload-label'

const uploadPopup = popupChunk(() => import('./upload-menu-popup'))

/** The header's Upload dropdown (Upload invoice / Upload document); the Ark menu loads on first intent. */
export function UploadMenu() {
  const { t } = useLingui()
  return (
    <LazyOnIntent
      {...uploadPopup}
      standIn={(handlers) => (
        <StandInButton handlers={handlers} popup="menu" className={button({ variant: 'solid', size: 'sm' })}>
          <UploadIcon />
          <span className={uploadLabel}>{t`Upload`}</span>
        </StandInButton>
      )}
    />
  )
}
