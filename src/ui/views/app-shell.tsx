import { Trans, useLingui } from '@lingui/react/macro'
import { Link, Outlet, useRouter, useRouterState } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { lazy, type ReactNode, Suspense, useEffect, useId } from 'react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ActorRefFrom } from 'xstate'
import { sidebarMachine } from '../../machines/shell/sidebar.machine'
import { useAppActors, useScreenActor } from '../app-context'
import {
  BoardIcon,
  ChartIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  ExternalIcon,
  HomeIcon,
  LogoMark,
  MenuIcon,
  SettingsIcon,
} from '../components/icons'
import { LanguageMenu } from '../components/language-menu'
import { CompanySwitcher } from './company-switcher'
import { UploadMenu } from './uploads/upload-menu'
import { UploadPanel } from './uploads/upload-panel'

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
        {/* The bottom padding keeps the collapsed upload panel (fixed, bottom right) off the last rows. */}
        <main
          id="main"
          className={css({ flex: '1', p: { base: '4', md: '8' }, pb: { base: '24', md: '28' } })}
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
  // Spec 02 §2: the Upload dropdown is hidden on /settings.
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
      <ExternalEntry
        field="powerbi_link"
        icon={<ChartIcon />}
        text={t`Reports (Power BI)`}
        collapsed={collapsed}
        className={item}
      />
      <ExternalEntry
        field="monday_link"
        icon={<BoardIcon />}
        text={t`Tasks (Monday)`}
        collapsed={collapsed}
        className={item}
      />
      <div className={css({ flex: '1' })} />
      <Link to="/settings" className={item} aria-label={collapsed ? t`Settings` : undefined}>
        <SettingsIcon />
        {label(<Trans>Settings</Trans>)}
      </Link>
    </nav>
  )
}

/**
 * The selected company's external link (opens in a new tab); without one the entry is disabled and
 * says why in a tooltip (text key common.linkDisabled) shown on hover and keyboard focus.
 */
function ExternalEntry(props: {
  field: 'powerbi_link' | 'monday_link'
  icon: ReactNode
  text: string
  collapsed: boolean
  className: string
}) {
  const { companySelection } = useAppActors()
  const href = useSelector(
    companySelection,
    (s) => s.context.companies.find((c) => c.id === s.context.selectedId)?.[props.field] ?? null,
  )
  const { t } = useLingui()
  const tooltipId = useId()
  if (href)
    return (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className={props.className}
        aria-label={props.collapsed ? props.text : undefined}
      >
        {props.icon}
        {props.collapsed ? null : <span className={css({ flex: '1' })}>{props.text}</span>}
        {props.collapsed ? null : <ExternalIcon />}
      </a>
    )
  return (
    // Without an address the entry stays focusable, is announced as unavailable, and says why.
    <button
      type="button"
      aria-disabled="true"
      aria-label={props.text}
      aria-describedby={tooltipId}
      className={cx(
        props.className,
        css({
          position: 'relative',
          opacity: 0.5,
          cursor: 'not-allowed',
          '&:is(:hover, :focus-visible) > [role=tooltip]': { display: 'block' },
        }),
      )}
    >
      {props.icon}
      {props.collapsed ? null : <span>{props.text}</span>}
      <span
        role="tooltip"
        id={tooltipId}
        className={css({
          display: 'none',
          position: 'absolute',
          left: 'calc(100% + 8px)',
          top: '50%',
          transform: 'translateY(-50%)',
          zIndex: 'tooltip',
          w: 'max-content',
          maxW: '60',
          bg: 'slate.900',
          color: 'white',
          fontSize: 'xs',
          px: '2',
          py: '1',
          borderRadius: 'sm',
          opacity: 1,
        })}
      >
        {t({ id: 'common.linkDisabled', message: 'No link has been set for this company' })}
      </span>
    </button>
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
