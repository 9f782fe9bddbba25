/** The sidebar's brand and navigation, shown by the desktop sidebar and the mobile overlay alike. */
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { type ReactNode, useId } from 'react'
import { css, cx } from 'styled-system/css'
import type { ActorRefFrom } from 'xstate'
import type { sidebarMachine } from '../../machines/shell/sidebar.machine'
import { useAppActors } from '../app-context'
import { BoardIcon, ChartIcon, ExternalIcon, HomeIcon, LogoMark, SettingsIcon } from '../components/icons'

export type SidebarActor = ActorRefFrom<typeof sidebarMachine>

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
