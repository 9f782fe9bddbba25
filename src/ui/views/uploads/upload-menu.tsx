import { useLingui } from '@lingui/react/macro'
import type { ComponentType } from 'react'
import { button } from 'styled-system/recipes'
import { UploadIcon } from '../../components/icons'
import { LazyOnIntent, type PopupProps } from '../../components/lazy-on-intent'
import { uploadLabel } from './upload-label'

const loadPopup = () => import('./upload-menu-popup')
const loaded: { current: ComponentType<PopupProps> | null } = { current: null }

/** The header's Upload dropdown (Upload invoice / Upload document); the Ark menu loads on first intent. */
export function UploadMenu() {
  const { t } = useLingui()
  return (
    <LazyOnIntent
      load={loadPopup}
      loaded={loaded}
      standIn={(handlers) => (
        <button
          type="button"
          className={button({ variant: 'solid', size: 'sm' })}
          aria-haspopup="menu"
          aria-expanded={false}
          {...handlers}
        >
          <UploadIcon />
          <span className={uploadLabel}>{t`Upload`}</span>
        </button>
      )}
    />
  )
}
