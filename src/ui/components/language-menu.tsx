import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useAppActors } from '../app-context'
import { GlobeIcon } from './icons'
import { LazyOnIntent, popupChunk, StandInButton } from './lazy-on-intent'

const languagePopup = popupChunk(() => import('./language-menu-popup'))

/** English / Français, the current one marked; the Ark menu loads on first intent. */
export function LanguageMenu() {
  const { language } = useAppActors()
  const current = useSelector(language, (s) => s.context.language)
  // The name starts with what the button shows ("EN"), as WCAG 2.5.3 asks.
  const code = current.toUpperCase()
  const { t } = useLingui()
  return (
    <LazyOnIntent
      {...languagePopup}
      standIn={(handlers) => (
        <StandInButton
          handlers={handlers}
          popup="menu"
          className={button({ variant: 'ghost', size: 'sm' })}
          label={t`${code} — Change language`}
        >
          <GlobeIcon />
          <span className={css({ textTransform: 'uppercase' })}>{current}</span>
        </StandInButton>
      )}
    />
  )
}
