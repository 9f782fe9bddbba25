import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { button } from 'styled-system/recipes'
import { useAppActors } from '../app-context'
import { UserIcon } from './icons'
import { LazyOnIntent, popupChunk, StandInButton } from './lazy-on-intent'
import { userMenuName } from './user-menu-name'

const userPopup = popupChunk(() => import('./user-menu-popup'))

/** The signed-in user's menu in the header (Settings, Logout); the Ark menu loads on first intent. */
export function UserMenu() {
  const { session } = useAppActors()
  const name = useSelector(session, (s) => s.context.user?.name ?? '')
  const { t } = useLingui()
  return (
    <LazyOnIntent
      {...userPopup}
      standIn={(handlers) => (
        <StandInButton
          handlers={handlers}
          popup="menu"
          className={button({ variant: 'ghost', size: 'sm' })}
          label={t`${name} — Account menu`}
        >
          <UserIcon />
          <span className={userMenuName}>{name}</span>
        </StandInButton>
      )}
    />
  )
}
