import { Trans, useLingui } from '@lingui/react/macro'
import { Link, Outlet, useRouter } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { lazy, type ReactNode, Suspense, useEffect } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { sidebarMachine } from '../../machines/sidebar.machine'
import { useScreenActor } from '../app-context'
import {
  ChevronLeftIcon,
  ChevronRightIcon,
  HomeIcon,
  LogoMark,
  MenuIcon,
  SettingsIcon,
} from '../components/icons'
import { LanguageMenu } from '../components/language-menu'

export type SidebarActor = ActorRefFrom<typeof sidebarMachine>

/** The overlay (Ark dialog with its focus trap) is fetched the first time it opens. */
const MobileSidebarDialog = lazy(() => import('./mobile-sidebar'))

/** Sidebar (16/64 units; an overlay below 768 px), header and the page. */
export function AppShell() {
  const sidebar = useScreenActor(sidebarMachine)
  const router = useRouter()
  // The overlay closes whenever the route changes.
  useEffect(
    () => router.subscribe('onResolved', (e) => e.pathChanged && sidebar.send({ type: 'route.changed' })),
    [router, sidebar],
  )

  return (
    <div className={css({ display: 'flex', minH: '100dvh' })}>
      <DesktopSidebar sidebar={sidebar} />
      <MobileSidebar sidebar={sidebar} />
      <div className={css({ flex: '1', minW: '0', display: 'flex', flexDirection: 'column' })}>
        <Header sidebar={sidebar} />
        <main id="main" className={css({ flex: '1', p: { base: '4', md: '8' } })}>
          <Outlet />
        </main>
      </div>
    </div>
  )
}

function Header({ sidebar }: { sidebar: SidebarActor }) {
  const { t } = useLingui()
  return (
    <header
      className={css({
        position: 'sticky',
        top: '0',
        zIndex: 'sticky',
        h: '16',
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        px: { base: '4', md: '8' },
        bg: 'bg.surface',
        borderBottomWidth: '1px',
        borderColor: 'border.default',
      })}
    >
      <button
        type="button"
        className={cx(
          button({ variant: 'ghost', size: 'icon' }),
          css({ display: { base: 'inline-flex', md: 'none' } }),
        )}
        aria-label={t`Open navigation`}
        onClick={() => sidebar.send({ type: 'sidebar.open' })}
      >
        <MenuIcon />
      </button>
      <div className={css({ flex: '1' })} />
      <LanguageMenu />
    </header>
  )
}

export function NavItems({ collapsed }: { collapsed: boolean }) {
  const { t } = useLingui()
  const item = css({
    display: 'flex',
    alignItems: 'center',
    gap: '3',
    h: '10',
    px: '3',
    borderRadius: 'md',
    color: 'fg.muted',
    fontSize: 'sm',
    fontWeight: 'medium',
    _hover: { bg: 'bg.muted', color: 'fg.default' },
    '&[data-status=active]': { bg: 'accent.subtle', color: 'accent.fg' },
  })
  const label = (text: ReactNode) => (collapsed ? null : <span>{text}</span>)
  return (
    <nav
      aria-label={t`Main`}
      className={css({ flex: '1', display: 'flex', flexDirection: 'column', gap: '1', p: '3' })}
    >
      <Link
        to="/"
        activeOptions={{ exact: true }}
        className={item}
        aria-label={collapsed ? t`Dashboard` : undefined}
      >
        <HomeIcon />
        {label(<Trans>Dashboard</Trans>)}
      </Link>
      <div className={css({ flex: '1' })} />
      <Link to="/settings" className={item} aria-label={collapsed ? t`Settings` : undefined}>
        <SettingsIcon />
        {label(<Trans>Settings</Trans>)}
      </Link>
    </nav>
  )
}

export function Brand({ collapsed }: { collapsed: boolean }) {
  return (
    <div
      className={css({
        h: '16',
        display: 'flex',
        alignItems: 'center',
        gap: '2',
        px: '4',
        fontWeight: 'semibold',
      })}
    >
      <LogoMark />
      {collapsed ? null : <span>DocFlow</span>}
    </div>
  )
}

function DesktopSidebar({ sidebar }: { sidebar: SidebarActor }) {
  const collapsed = useSelector(sidebar, (s) => s.matches({ desktop: 'collapsed' }))
  const { t } = useLingui()
  return (
    <aside
      data-collapsed={collapsed}
      className={css({
        display: { base: 'none', md: 'flex' },
        flexDirection: 'column',
        flexShrink: 0,
        w: collapsed ? '16' : '64',
        transition: 'width 0.2s',
        bg: 'bg.surface',
        borderRightWidth: '1px',
        borderColor: 'border.default',
        position: 'sticky',
        top: '0',
        h: '100dvh',
      })}
    >
      <Brand collapsed={collapsed} />
      <NavItems collapsed={collapsed} />
      <div className={css({ p: '3', borderTopWidth: '1px', borderColor: 'border.default' })}>
        <button
          type="button"
          className={button({ variant: 'ghost', size: 'icon' })}
          aria-label={collapsed ? t`Expand sidebar` : t`Collapse sidebar`}
          aria-expanded={!collapsed}
          onClick={() => sidebar.send({ type: 'sidebar.toggle' })}
        >
          {collapsed ? <ChevronRightIcon /> : <ChevronLeftIcon />}
        </button>
      </div>
    </aside>
  )
}

function MobileSidebar({ sidebar }: { sidebar: SidebarActor }) {
  const open = useSelector(sidebar, (s) => s.matches({ mobile: 'open' }))
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <MobileSidebarDialog sidebar={sidebar} />
    </Suspense>
  )
}
