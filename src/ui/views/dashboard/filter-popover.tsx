import { Popover } from '@ark-ui/react/popover'
import { Portal } from '@ark-ui/react/portal'
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { LOG_TYPE_LABEL } from '../../../contract/document-labels'
import {
  activeFilterCount,
  DATE_PRESETS,
  type Filters,
  isValidRange,
  STATUS_FILTERS,
  TYPE_FILTERS,
} from '../../../machines/dashboard/filters.machine'
import type { PopupProps } from '../../components/lazy-on-intent'
import { FilterCount, useDashboard } from './dashboard-context'

const select = css({
  h: '9',
  px: '2',
  w: 'full',
  borderWidth: '1px',
  borderColor: 'border.strong',
  borderRadius: 'md',
  bg: 'bg.surface',
  fontSize: 'sm',
})
const label = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '1',
  fontSize: 'sm',
  fontWeight: 'medium',
})

/** The filter popover (status, type, date preset or range); its draft lives in the dashboard's
 * `filters` actor, which the dashboard opens with the filters in force. */
export default function FilterPopover(_: PopupProps) {
  const dashboard = useDashboard()
  const popover = useSelector(dashboard, (s) => s.children.filters)
  if (!popover) throw new Error('the dashboard has no filter popover')
  const open = useSelector(popover, (s) => s.matches('open'))
  const draft = useSelector(popover, (s) => s.context.draft)
  const count = useSelector(dashboard, (s) => activeFilterCount(s.context.filters))
  const canApply = useSelector(popover, (s) => s.can({ type: 'filters.apply' }))
  const { t, i18n } = useLingui()
  const edit = (patch: Partial<Filters>) => popover.send({ type: 'filters.edit', patch })
  const statusLabels: Record<Filters['status'], string> = {
    all: t`All statuses`,
    pending: t`Pending`,
    processing: t`Processing`,
    completed: t`Completed`,
    failed: t`Failed`,
  }
  const typeLabels: Record<Filters['type'], string> = {
    all: t`All types`,
    invoice: i18n._(LOG_TYPE_LABEL.Invoice),
    document: i18n._(LOG_TYPE_LABEL.Document),
  }
  const dateLabels: Record<Filters['date'], string> = {
    all: t`Any date`,
    today: t`Today`,
    yesterday: t`Yesterday`,
    lastWeek: t`Last 7 days`,
    lastMonth: t`Last 30 days`,
    custom: t`Custom range`,
  }
  const rangeInvalid = draft.date === 'custom' && draft.from && draft.to && !isValidRange(draft)

  return (
    <Popover.Root
      open={open}
      onOpenChange={(d) =>
        d.open ? dashboard.send({ type: 'filters.open' }) : popover.send({ type: 'filters.close' })
      }
      positioning={{ placement: 'bottom-end' }}
    >
      <Popover.Trigger className={button({ variant: 'outline', size: 'sm' })}>
        <Trans>Filter</Trans>
        {count ? <FilterCount count={count} /> : null}
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content
            className={css({
              w: '80',
              bg: 'bg.surface',
              borderWidth: '1px',
              borderColor: 'border.default',
              borderRadius: 'lg',
              boxShadow: 'lg',
              p: '4',
              zIndex: 'dropdown',
              display: 'flex',
              flexDirection: 'column',
              gap: '3',
              outline: 'none',
            })}
          >
            <Popover.Title className={css({ fontWeight: 'semibold' })}>
              <Trans>Filters</Trans>
            </Popover.Title>
            <label className={label}>
              <Trans>Status</Trans>
              <select
                className={select}
                value={draft.status}
                onChange={(e) => edit({ status: e.currentTarget.value as Filters['status'] })}
              >
                {STATUS_FILTERS.map((s) => (
                  <option key={s} value={s}>
                    {statusLabels[s]}
                  </option>
                ))}
              </select>
            </label>
            <label className={label}>
              <Trans>Type</Trans>
              <select
                className={select}
                value={draft.type}
                onChange={(e) => edit({ type: e.currentTarget.value as Filters['type'] })}
              >
                {TYPE_FILTERS.map((s) => (
                  <option key={s} value={s}>
                    {typeLabels[s]}
                  </option>
                ))}
              </select>
            </label>
            <label className={label}>
              <Trans>Date</Trans>
              <select
                className={select}
                value={draft.date}
                onChange={(e) => edit({ date: e.currentTarget.value as Filters['date'] })}
              >
                {DATE_PRESETS.map((s) => (
                  <option key={s} value={s}>
                    {dateLabels[s]}
                  </option>
                ))}
              </select>
            </label>
            {draft.date === 'custom' ? (
              <div className={css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' })}>
                <label className={label}>
                  <Trans>From</Trans>
                  <input
                    type="date"
                    className={select}
                    value={draft.from ?? ''}
                    max={draft.to ?? undefined}
                    onChange={(e) => edit({ from: e.currentTarget.value || null })}
                  />
                </label>
                <label className={label}>
                  <Trans>To</Trans>
                  <input
                    type="date"
                    className={select}
                    value={draft.to ?? ''}
                    min={draft.from ?? undefined}
                    onChange={(e) => edit({ to: e.currentTarget.value || null })}
                  />
                </label>
              </div>
            ) : null}
            {rangeInvalid ? (
              <p role="alert" className={css({ fontSize: 'xs', color: 'danger.fg' })}>
                <Trans>From cannot be later than To.</Trans>
              </p>
            ) : null}
            <div className={css({ display: 'flex', justifyContent: 'space-between', pt: '2' })}>
              <button
                type="button"
                className={button({ variant: 'ghost', size: 'sm' })}
                onClick={() => popover.send({ type: 'filters.reset' })}
              >
                <Trans>Reset</Trans>
              </button>
              <button
                type="button"
                className={button({ size: 'sm' })}
                disabled={!canApply}
                onClick={() => popover.send({ type: 'filters.apply' })}
              >
                <Trans>Apply Filters</Trans>
              </button>
            </div>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  )
}
