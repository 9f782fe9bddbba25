import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { ComponentType } from 'react'
import { css } from 'styled-system/css'
import { useAppActors } from '../app-context'
import { LazyOnIntent, type PopupProps } from '../components/lazy-on-intent'
import { CompanyLogo, switcherTrigger } from './company-logo'

const loadPopup = () => import('./company-switcher-popup')
const loaded: { current: ComponentType<PopupProps> | null } = { current: null }

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
