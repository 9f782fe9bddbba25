import { Popover } from '@ark-ui/react/popover'
import { Portal } from '@ark-ui/react/portal'
import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { LOG_TYPE_LABEL } from '../../../../contract/document-labels'
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
  // A date box is as narrow as its column (its own minimum is wider than half the popover).
  minW: '0',
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
  minW: '0',
  fontSize: 'sm',
  fontWeight: 'medium',
})

type FilterActor = NonNullable<ReturnType<typeof useFilterActor>>

function useFilterActor() {
  const popover = useSelector(useDashboard(), (s) => s.children.filters)
  if (!popover) throw new Error('the dashboard has no filter popover')
  return popover
}

/** The filter popover (status, type, date preset or range); its draft lives in the dashboard's
 * `filters` actor, which the dashboard opens with the filters in force. */
export default function FilterPopover(_: PopupProps) {
  const dashboard = useDashboard()
  const popover = useFilterActor()
  const open = useSelector(popover, (s) => s.matches('open'))
  const count = useSelector(dashboard, (s) => activeFilterCount(s.context.filters))

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
              // Never taller or wider than the room Ark measured beside the button: the fields scroll.
              maxW: 'calc(100vw - 1rem)',
              maxH: 'var(--available-height, calc(100dvh - 5rem))',
              overflowY: 'auto',
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
            <FilterFields popover={popover} />
            <FilterActions popover={popover} />
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  )
}

/** The labels of the status, type and date choices, in the interface language. */
function useChoiceLabels() {
  const { t, i18n } = useLingui()
  const status: Record<Filters['status'], string> = {
    all: t`All statuses`,
    pending: t`Pending`,
    processing: t`Processing`,
    completed: t`Completed`,
    failed: t`Failed`,
  }
  const type: Record<Filters['type'], string> = {
    all: t`All types`,
    invoice: i18n._(LOG_TYPE_LABEL.Invoice),
    expense: i18n._(LOG_TYPE_LABEL.Expense),
    document: i18n._(LOG_TYPE_LABEL.Document),
  }
  const date: Record<Filters['date'], string> = {
    all: t`Any date`,
    today: t`Today`,
    yesterday: t`Yesterday`,
    lastWeek: t`Last 7 days`,
    lastMonth: t`Last 30 days`,
    custom: t`Custom range`,
  }
  return { status, type, date }
}

/** The values each choice of the popover offers. */
const CHOICES = { status: STATUS_FILTERS, type: TYPE_FILTERS, date: DATE_PRESETS }

/** A labelled choice among a filter's values; choosing edits the draft's `field`. */
function Choice<F extends keyof typeof CHOICES>({
  field,
  label: text,
  draft,
  labels,
  onEdit,
}: {
  field: F
  label: ReactNode
  draft: Filters
  labels: ReturnType<typeof useChoiceLabels>
  onEdit: (patch: Partial<Filters>) => void
}) {
  const names: Record<string, string> = labels[field]
  return (
    <label className={label}>
      {text}
      <select
        className={select}
        value={draft[field]}
        onChange={(e) => onEdit({ [field]: e.currentTarget.value } as Partial<Filters>)}
      >
        {CHOICES[field].map((s) => (
          <option key={s} value={s}>
            {names[s]}
          </option>
        ))}
      </select>
    </label>
  )
}

function FilterFields({ popover }: { popover: FilterActor }) {
  const draft = useSelector(popover, (s) => s.context.draft)
  const labels = useChoiceLabels()
  const edit = (patch: Partial<Filters>) => popover.send({ type: 'filters.edit', patch })
  const rangeInvalid = draft.date === 'custom' && draft.from && draft.to && !isValidRange(draft)
  return (
    <>
      <Choice field="status" label={<Trans>Status</Trans>} draft={draft} labels={labels} onEdit={edit} />
      <Choice field="type" label={<Trans>Type</Trans>} draft={draft} labels={labels} onEdit={edit} />
      <Choice field="date" label={<Trans>Date</Trans>} draft={draft} labels={labels} onEdit={edit} />
      {draft.date === 'custom' ? (
        <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: '2' })}>
          <DateBound
            label={<Trans>From</Trans>}
            value={draft.from}
            max={draft.to}
            onChange={(from) => edit({ from })}
          />
          <DateBound
            label={<Trans>To</Trans>}
            value={draft.to}
            min={draft.from}
            onChange={(to) => edit({ to })}
          />
        </div>
      ) : null}
      {rangeInvalid ? (
        <p role="alert" className={css({ fontSize: 'xs', color: 'danger.fg' })}>
          <Trans>From cannot be later than To.</Trans>
        </p>
      ) : null}
    </>
  )
}

/** One end of the custom date range; cleared, it is null. */
function DateBound({
  label: text,
  value,
  min,
  max,
  onChange,
}: {
  label: ReactNode
  value: string | null
  min?: string | null
  max?: string | null
  onChange: (value: string | null) => void
}) {
  return (
    <label className={label}>
      {text}
      <input
        type="date"
        className={select}
        value={value ?? ''}
        min={min ?? undefined}
        max={max ?? undefined}
        onChange={(e) => onChange(e.currentTarget.value || null)}
      />
    </label>
  )
}

function FilterActions({ popover }: { popover: FilterActor }) {
  const canApply = useSelector(popover, (s) => s.can({ type: 'filters.apply' }))
  return (
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
  )
}
