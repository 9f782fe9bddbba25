import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { lazy, Suspense, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useAppActors } from '../app-context'
import { GlobeIcon } from './icons'

const loadPopup = () => import('./language-menu-popup')
const LanguageMenuPopup = lazy(loadPopup)
let popupLoaded = false

/**
 * English / Français, the current one marked. The menu (Ark + positioning, ~30 KiB gzip) is only
 * needed on interaction, so a plain trigger stands in until the pointer or focus reaches it; a
 * click before the chunk arrives opens the menu once it does, and focus moves to the real trigger.
 */
export function LanguageMenu() {
  const { language } = useAppActors()
  const current = useSelector(language, (s) => s.context.language)
  const { t } = useLingui()
  const [wanted, setWanted] = useState(popupLoaded)
  const [openOnLoad, setOpenOnLoad] = useState(false)
  const hadFocus = useRef(false)

  const standIn = (
    <button
      type="button"
      className={button({ variant: 'ghost', size: 'sm' })}
      aria-label={t`Change language`}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => setWanted(true)}
      onFocus={() => {
        hadFocus.current = true
        setWanted(true)
      }}
      onPointerDown={() => {
        setOpenOnLoad(true)
        setWanted(true)
      }}
      onClick={() => {
        setOpenOnLoad(true)
        setWanted(true)
      }}
    >
      <GlobeIcon />
      <span className={css({ textTransform: 'uppercase' })}>{current}</span>
    </button>
  )
  if (!wanted) return standIn
  return (
    <Suspense fallback={standIn}>
      <LoadedPopup defaultOpen={openOnLoad} autoFocus={hadFocus.current} />
    </Suspense>
  )
}

function LoadedPopup(props: { defaultOpen: boolean; autoFocus: boolean }) {
  popupLoaded = true
  return <LanguageMenuPopup {...props} />
}
