import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { ComponentType } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useAppActors } from '../app-context'
import { GlobeIcon } from './icons'
import { LazyOnIntent, type PopupProps } from './lazy-on-intent'

const loadPopup = () => import('./language-menu-popup')
const loaded: { current: ComponentType<PopupProps> | null } = { current: null }

/** English / Français, the current one marked; the Ark menu loads on first intent. */
export function LanguageMenu() {
  const { language } = useAppActors()
  const current = useSelector(language, (s) => s.context.language)
  const { t } = useLingui()
  return (
    <LazyOnIntent
      load={loadPopup}
      loaded={loaded}
      standIn={(handlers) => (
        <button
          type="button"
          className={button({ variant: 'ghost', size: 'sm' })}
          aria-label={t`Change language`}
          aria-haspopup="menu"
          aria-expanded={false}
          {...handlers}
        >
          <GlobeIcon />
          <span className={css({ textTransform: 'uppercase' })}>{current}</span>
        </button>
      )}
    />
  )
}
