import { useLingui } from '@lingui/react/macro'
import { Outlet, useRouter, useRouterState } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { Suspense, useEffect } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { sidebarMachine } from '../../machines/shell/sidebar.machine'
import { useScreenActor } from '../app-context'
import { ChevronLeftIcon, ChevronRightIcon, MenuIcon } from '../components/icons'
import { LanguageMenu } from '../components/language-menu'
import { UserMenu } from '../components/user-menu'
import { lazyRetrying } from '../lazy-retrying'
import { focusMainHeading, MAIN_ID, SkipLink } from '../page-focus'
import { Brand, NavItems, type SidebarActor } from './app-nav'
import { CompanySwitcher } from './company-switcher'
import { UploadMenu } from './uploads/upload-menu'
import { UploadPanel } from './uploads/upload-panel'

/** The overlay (Ark dialog with its focus trap) is fetched the first time it opens. */
const MobileSidebarDialog = lazyRetrying(() => import('./mobile-sidebar'))

/** Sidebar (16/64 units; an overlay below 768 px), header and the page. */
export function AppShell() {
  const sidebar = useScreenActor(sidebarMachine)
  const router = useRouter()
  // The overlay closes whenever the route changes, and focus moves to the new page's heading.
  useEffect(
    () =>
      router.subscribe('onResolved', (e) => {
        if (!e.pathChanged) return
        sidebar.send({ type: 'route.changed' })
        // Not on the page's first load: there the skip link stays the first Tab stop.
        if (e.fromLocation) focusMainHeading()
      }),
    [router, sidebar],
  )

  return (
    <div className={css({ display: 'flex', minH: '100dvh' })}>
      <SkipLink />
      <DesktopSidebar sidebar={sidebar} />
      <MobileSidebar sidebar={sidebar} />
      <div className={css({ flex: '1', minW: '0', display: 'flex', flexDirection: 'column' })}>
        <Header sidebar={sidebar} />
        {/* The bottom padding keeps what floats over the page off its last rows: the collapsed upload
            panel (fixed, bottom right), or the open panel and the toasts stacked above it, whichever is taller. */}
        <main
          id={MAIN_ID}
          tabIndex={-1}
          className={css({
            flex: '1',
            p: { base: '4', md: '8' },
            pb: {
              base: 'max(6rem, calc(var(--upload-panel-height, 0px) + var(--toasts-height, 0px) + 1rem))',
              md: 'max(7rem, calc(var(--upload-panel-height, 0px) + var(--toasts-height, 0px) + 1rem))',
            },
          })}
        >
          <Outlet />
        </main>
      </div>
      <UploadPanel />
    </div>
  )
}

function Header({ sidebar }: { sidebar: SidebarActor }) {
  const { t } = useLingui()
  // The header's Upload dropdown is hidden on /settings.
  const onSettings = useRouterState({ select: (s) => s.location.pathname.startsWith('/settings') })
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
      <CompanySwitcher />
      <div className={css({ flex: '1' })} />
      {onSettings ? null : <UploadMenu />}
      <LanguageMenu />
      <UserMenu />
    </header>
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
        // Above the main column, so that a nav item's tooltip is not covered by the table.
        zIndex: 'docked',
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
