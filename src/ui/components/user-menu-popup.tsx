import { Menu } from '@ark-ui/react/menu'
import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { button, menu } from 'styled-system/recipes'
import { useAppActors } from '../app-context'
import { LogoutIcon, SettingsIcon, UserIcon } from './icons'
import type { PopupProps } from './lazy-on-intent'
import { userMenuName } from './user-menu-name'

/**
 * The Ark menu of the header's user button (arrow keys, Enter, Escape), loaded on first intent.
 * Not portalled: it stays inside the header's banner landmark.
 */
export default function UserMenuPopup({ defaultOpen }: PopupProps) {
  const { session } = useAppActors()
  const name = useSelector(session, (s) => s.context.user?.name ?? '')
  const navigate = useNavigate()
  const { t } = useLingui()
  const classes = menu()
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end', strategy: 'fixed' }}
      defaultOpen={defaultOpen}
      onSelect={(d) => {
        if (d.value === 'settings') void navigate({ to: '/settings' })
        if (d.value === 'logout') session.send({ type: 'session.logout' })
      }}
    >
      <Menu.Trigger
        className={button({ variant: 'ghost', size: 'sm' })}
        aria-label={t`${name} — Account menu`}
      >
        <UserIcon />
        <span className={userMenuName}>{name}</span>
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content className={classes.content}>
          <Menu.Item value="settings" className={classes.item}>
            <SettingsIcon />
            <Trans>Settings</Trans>
          </Menu.Item>
          <Menu.Item value="logout" className={classes.item}>
            <LogoutIcon />
            <Trans>Logout</Trans>
          </Menu.Item>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}
