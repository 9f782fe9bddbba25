import { Popover } from '@ark-ui/react/popover'
import { Portal } from '@ark-ui/react/portal'
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { input } from 'styled-system/recipes'
import { useAppActors } from '../app-context'
import { CheckIcon } from '../components/icons'
import type { PopupProps } from '../components/lazy-on-intent'
import { CompanyLogo, switcherTrigger } from './company-logo'

/** The switcher's popover: a search box and the matching companies (loaded on first intent). */
export default function CompanySwitcherPopup({ defaultOpen }: PopupProps) {
  const { companySelection } = useAppActors()
  const companies = useSelector(companySelection, (s) => s.context.companies)
  const selectedId = useSelector(companySelection, (s) => s.context.selectedId)
  const [open, setOpen] = useState(defaultOpen)
  const [query, setQuery] = useState('')
  const { t } = useLingui()
  const selected = companies.find((c) => c.id === selectedId)
  const matches = companies.filter((c) =>
    c.name.toLocaleLowerCase().includes(query.trim().toLocaleLowerCase()),
  )
  if (!selected) return null

  return (
    <Popover.Root
      open={open}
      onOpenChange={(d) => {
        setOpen(d.open)
        if (!d.open) setQuery('')
      }}
      positioning={{ placement: 'bottom-start' }}
      initialFocusEl={() => document.getElementById('company-search')}
    >
      <Popover.Trigger className={switcherTrigger} aria-label={t`${selected.name} — Change company`}>
        <CompanyLogo company={selected} />
        <span className={css({ truncate: true })}>{selected.name}</span>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content
            className={css({
              w: '72',
              bg: 'bg.surface',
              borderWidth: '1px',
              borderColor: 'border.default',
              borderRadius: 'md',
              boxShadow: 'lg',
              p: '2',
              zIndex: 'dropdown',
              display: 'flex',
              flexDirection: 'column',
              gap: '2',
              outline: 'none',
            })}
          >
            <Popover.Title className={css({ srOnly: true })}>{t`Change company`}</Popover.Title>
            <input
              id="company-search"
              type="search"
              className={input()}
              placeholder={t`Search companies`}
              aria-label={t`Search companies`}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
            />
            {matches.length === 0 ? (
              <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted', px: '2', py: '3' })}>
                <Trans>No company found</Trans>
              </p>
            ) : (
              <ul aria-label={t`Companies`} className={css({ maxH: '72', overflowY: 'auto' })}>
                {matches.map((company) => (
                  <li key={company.id}>
                    <button
                      type="button"
                      aria-current={company.id === selectedId ? 'true' : undefined}
                      onClick={() => {
                        companySelection.send({ type: 'company.select', id: company.id })
                        setOpen(false)
                        setQuery('')
                      }}
                      className={css({
                        w: 'full',
                        display: 'flex',
                        alignItems: 'center',
                        gap: '2',
                        px: '2',
                        py: '2',
                        borderRadius: 'sm',
                        fontSize: 'sm',
                        textAlign: 'left',
                        cursor: 'pointer',
                        _hover: { bg: 'bg.muted' },
                        _focusVisible: { bg: 'bg.muted' },
                      })}
                    >
                      <CompanyLogo company={company} size={6} />
                      <span className={css({ flex: '1', truncate: true })}>{company.name}</span>
                      {company.id === selectedId ? <CheckIcon /> : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  )
}
