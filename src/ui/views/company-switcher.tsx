import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { useAppActors } from '../app-context'
import { LazyOnIntent, popupChunk, StandInButton } from '../components/lazy-on-intent'
import { CompanyLogo, switcherTrigger } from './company-logo'

const switcherPopup = popupChunk(() => import('./company-switcher-popup'))

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
      {...switcherPopup}
      standIn={(handlers) => (
        <StandInButton
          handlers={handlers}
          popup="dialog"
          className={switcherTrigger}
          label={t`${selected.name} — Change company`}
        >
          <CompanyLogo company={selected} />
          <span className={css({ truncate: true })}>{selected.name}</span>
        </StandInButton>
      )}
    />
  )
}
