import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { ComponentType } from 'react'
import { css } from 'styled-system/css'
import type { CompanyChoice } from '../../machines/shell/company-selection.machine'
import { useAppActors } from '../app-context'
import { LazyOnIntent, type PopupProps } from '../components/lazy-on-intent'

const loadPopup = () => import('./company-switcher-popup')
const loaded: { current: ComponentType<PopupProps> | null } = { current: null }

export const switcherTrigger = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  h: '10',
  px: '2',
  maxW: { base: '44', sm: '64' },
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
})

export function CompanyLogo({ company, size = 7 }: { company: CompanyChoice; size?: 6 | 7 }) {
  const px = size * 4
  if (company.logoUrl)
    return (
      <img
        src={company.logoUrl}
        alt=""
        width={px}
        height={px}
        className={css({ borderRadius: 'sm', objectFit: 'contain', flexShrink: 0, bg: 'white' })}
      />
    )
  return (
    <span
      aria-hidden="true"
      style={{ width: px, height: px }}
      className={css({
        display: 'grid',
        placeItems: 'center',
        borderRadius: 'sm',
        bg: 'accent.subtle',
        color: 'accent.fg',
        fontSize: 'xs',
        fontWeight: 'bold',
        flexShrink: 0,
      })}
    >
      {company.name.slice(0, 2).toUpperCase()}
    </span>
  )
}

/** The header's company switcher: skeleton while loading, hidden without companies. */
export function CompanySwitcher() {
  const { companySelection } = useAppActors()
  const phase = useSelector(companySelection, (s) => (s.hasTag('loading') ? 'loading' : s.value))
  const selected = useSelector(companySelection, (s) =>
    s.context.companies.find((c) => c.id === s.context.selectedId),
  )
  const { t } = useLingui()
  if (phase === 'loading')
    return (
      <div
        role="status"
        aria-label={t`Loading companies`}
        className={css({ h: '8', w: '40', borderRadius: 'md', bg: 'bg.subtle', animation: 'pulse' })}
      />
    )
  if (phase !== 'ready' || !selected) return null
  return (
    <LazyOnIntent
      load={loadPopup}
      loaded={loaded}
      standIn={(handlers) => (
        <button
          type="button"
          className={switcherTrigger}
          aria-label={t`Company: ${selected.name}. Change company`}
          aria-haspopup="dialog"
          aria-expanded={false}
          {...handlers}
        >
          <CompanyLogo company={selected} />
          <span className={css({ truncate: true })}>{selected.name}</span>
        </button>
      )}
    />
  )
}
