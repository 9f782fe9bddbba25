import { useLingui } from '@lingui/react/macro'
import { lazy } from 'react'
import { button } from 'styled-system/recipes'
import { UploadIcon } from '../../components/icons'
import { LazyOnIntent } from '../../components/lazy-on-intent'

const UploadMenuPopup = lazy(() => import('./upload-menu-popup'))
const loaded = { current: false }

/** The header's Upload dropdown (Upload invoice / Upload document); the Ark menu loads on first intent. */
export function UploadMenu() {
  const { t } = useLingui()
  return (
    <LazyOnIntent
      popup={UploadMenuPopup}
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
          <span>{t`Upload`}</span>
        </button>
      )}
    />
  )
}
