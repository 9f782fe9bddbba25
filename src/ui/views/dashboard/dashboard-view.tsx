import { Trans, useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { type ReactNode, Suspense } from 'react'
import { css, cx } from 'styled-system/css'
import { button, card } from 'styled-system/recipes'
import { LOG_TYPE_LABEL } from '../../../../contract/document-labels'
import type { DashboardActor } from '../../../machines/dashboard/dashboard.implementations'
import type { SortColumn, Summary } from '../../../machines/dashboard/dashboard.machine'
import { activeFilterCount } from '../../../machines/dashboard/filters.machine'
import { canDeleteRow } from '../../../machines/dashboard/row-actions.machine'
import { useAppActors, useScreenActor } from '../../app-context'
import { BusyButton, Button } from '../../components/button'
import { TrashIcon } from '../../components/icons'
import { LazyOnIntent, popupChunk } from '../../components/lazy-on-intent'
import { DataTable, SortableTh, Td, Th, Tr } from '../../components/table'
import { lazyRetrying } from '../../lazy-retrying'
import { useDocumentTitle } from '../../page-focus'
import { DashboardActorContext, FilterCount, useDashboard } from './dashboard-context'
import { DropAnywhere } from './drop-anywhere'
import { ExportButton } from './export-dialog'
import { LogReason, LogSource } from './log-source'
import { ReviewMarker } from './review-marker'
import {
  hasDetails,
  openableRow,
  ROW_KEY_ATTRIBUTE,
  rememberOpener,
  rowKey,
  useFocusReturnToRow,
} from './row-focus'
import { StatusBadge } from './status-badge'

/** The dashboard's row actions (details, deletion), the actor the dashboard invokes for them. */
function useRowActions() {
  const rowActions = useSelector(useDashboard(), (s) => s.children.rowActions)
  if (!rowActions) throw new Error('the dashboard has no row actions')
  return rowActions
}

const filterPopover = popupChunk(() => import('./filter-popover'))
const DocumentDetailDialog = lazyRetrying(() => import('../details/document-detail-dialog'))
const ConfirmDialog = lazyRetrying(() =>
  import('../../components/confirm-dialog').then((m) => ({ default: m.ConfirmDialog })),
)

/** The delete confirmation cuts names over 30 characters to 30 plus an ellipsis. */
const cutName = (name: string) => (name.length > 30 ? `${name.slice(0, 30)}…` : name)

/** The dashboard: welcome, summary cards and recent uploads of the selected company. */
export function DashboardView() {
  const { session, companySelection } = useAppActors()
  const name = useSelector(session, (s) => s.context.user?.name ?? '')
  const companyId = useSelector(companySelection, (s) => s.context.selectedId)
  const noCompany = useSelector(companySelection, (s) => s.matches('empty'))
  const companyName = useSelector(
    companySelection,
    (s) => s.context.companies.find((c) => c.id === s.context.selectedId)?.name ?? '',
  )
  const { t } = useLingui()
  useDocumentTitle(t`Dashboard`, companyName)
  const header = (exportButton: ReactNode) => (
    <div className={css({ display: 'flex', gap: '4', alignItems: 'flex-start', flexWrap: 'wrap' })}>
      <div className={css({ flex: '1' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', letterSpacing: 'tight' })}>
          <Trans>Welcome back, {name}!</Trans>
        </h1>
        <p className={css({ color: 'fg.muted' })}>
          <Trans>Here is what is happening with your documents.</Trans>
        </p>
      </div>
      {exportButton}
    </div>
  )
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', maxW: '6xl', mx: 'auto' })}>
      {companyId ? <CompanyDashboard key={companyId} companyId={companyId} header={header} /> : header(null)}
      {noCompany ? (
        <p className={cx(card({}), css({ p: '6', color: 'fg.muted' }))}>
          <Trans>You are not a member of any company yet. Ask your administrator to add you to one.</Trans>
        </p>
      ) : null}
    </div>
  )
}

function CompanyDashboard({
  companyId,
  header,
}: {
  companyId: number
  header: (exportButton: ReactNode) => ReactNode
}) {
  const { machines } = useAppActors()
  // Its `uploads` actor reloads it after each upload that completes or fails.
  const dashboard = useScreenActor(machines.dashboard, { input: { companyId } })
  // The export opens with the worklist's filters in force.
  const filters = useSelector(dashboard, (s) => s.context.filters)
  return (
    <>
      {header(<ExportButton companyId={companyId} filters={filters} />)}
      <CompanyDashboardView dashboard={dashboard} companyId={companyId} />
      <DropAnywhere />
    </>
  )
}

/** The company's summary, table and row dialogs for a dashboard actor (tests give their own). */
export function CompanyDashboardView({
  dashboard,
  companyId,
}: {
  dashboard: DashboardActor
  companyId: number
}) {
  return (
    <DashboardActorContext value={dashboard}>
      <SummaryCards />
      <RecentUploads />
      <RowDialogs companyId={companyId} />
    </DashboardActorContext>
  )
}

function SummaryCards() {
  const dashboard = useDashboard()
  const summary = useSelector(dashboard, (s) => s.context.summary)
  const status = useSelector(dashboard, (s) => s.context.filters.status)
  const review = useSelector(dashboard, (s) => s.context.filters.review)
  const { t } = useLingui()
  const cards: { key: keyof Summary; label: string; active: boolean; onClick: () => void; accent: string }[] =
    [
      {
        key: 'total',
        label: t`Total documents`,
        active: false,
        onClick: () => dashboard.send({ type: 'summary.reset' }),
        accent: 'var(--colors-summary-total)',
      },
      {
        key: 'pending',
        label: t`Pending`,
        active: status === 'pending',
        onClick: () => dashboard.send({ type: 'summary.toggle', status: 'pending' }),
        accent: 'var(--colors-summary-pending)',
      },
      {
        key: 'failed',
        label: t`Failed`,
        active: status === 'failed',
        onClick: () => dashboard.send({ type: 'summary.toggle', status: 'failed' }),
        accent: 'var(--colors-summary-failed)',
      },
      {
        key: 'review',
        label: t`To review`,
        active: review === 'needed',
        onClick: () => dashboard.send({ type: 'review.toggle' }),
        accent: 'var(--colors-summary-review)',
      },
    ]
  return (
    <div
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
        gap: '4',
      })}
    >
      {cards.map((c) => (
        <button
          key={c.key}
          type="button"
          aria-pressed={c.key === 'total' ? undefined : c.active}
          onClick={c.onClick}
          className={cx(
            card({}),
            css({
              p: '5',
              textAlign: 'left',
              cursor: 'pointer',
              display: 'flex',
              flexDirection: 'column',
              gap: '1',
              transition: 'box-shadow 0.15s, border-color 0.15s',
              _hover: { boxShadow: 'md' },
              '&[aria-pressed=true]': { borderColor: 'accent.default', boxShadow: 'md' },
            }),
          )}
        >
          <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{c.label}</span>
          <span style={{ color: c.accent }} className={css({ fontSize: '3xl', fontWeight: 'bold' })}>
            {summary[c.key]}
          </span>
        </button>
      ))}
    </div>
  )
}

function RecentUploads() {
  const dashboard = useDashboard()
  const searchTerm = useSelector(dashboard, (s) => s.context.searchTerm)
  const count = useSelector(dashboard, (s) => activeFilterCount(s.context.filters))
  const { t } = useLingui()
  return (
    <section aria-labelledby="recent-uploads" className={card({})}>
      <div
        className={css({
          p: '4',
          display: 'flex',
          flexWrap: 'wrap',
          gap: '3',
          alignItems: 'center',
          borderBottomWidth: '1px',
          borderColor: 'border.default',
        })}
      >
        <h2
          id="recent-uploads"
          className={css({ fontSize: 'lg', fontWeight: 'semibold', flex: '1', minW: '40' })}
        >
          <Trans>Recent uploads</Trans>
        </h2>
        <input
          type="search"
          value={searchTerm}
          onChange={(e) => dashboard.send({ type: 'search.input', term: e.currentTarget.value })}
          placeholder={t`Search documents`}
          aria-label={t`Search documents`}
          className={css({
            h: '9',
            px: '3',
            w: { base: 'full', sm: '64' },
            borderWidth: '1px',
            borderColor: 'border.strong',
            borderRadius: 'md',
            fontSize: 'sm',
            bg: 'bg.surface',
          })}
        />
        <LazyOnIntent
          {...filterPopover}
          onPress={() => dashboard.send({ type: 'filters.open' })}
          standIn={(handlers) => (
            <button
              type="button"
              className={button({ variant: 'outline', size: 'sm' })}
              aria-haspopup="dialog"
              {...handlers}
            >
              <Trans>Filter</Trans>
              {count ? <FilterCount count={count} /> : null}
            </button>
          )}
        />
      </div>
      <LogTable />
    </section>
  )
}

/** The detail dialog of the open row, and the delete confirmation; both fetched when first needed. */
function RowDialogs({ companyId }: { companyId: number }) {
  const rowActions = useRowActions()
  const detail = useSelector(rowActions, (s) => s.context.detail)
  const toDelete = useSelector(rowActions, (s) => s.context.toDelete)
  const deleting = useSelector(rowActions, (s) => s.hasTag('deleting'))
  useFocusReturnToRow(useDashboard(), detail)
  const { t } = useLingui()
  return (
    <Suspense fallback={null}>
      {detail ? (
        <DocumentDetailDialog
          key={`${detail.kind}-${detail.id}`}
          kind={detail.kind}
          id={detail.id}
          companyId={companyId}
          onClose={() => rowActions.send({ type: 'details.close' })}
          onSaved={() => rowActions.send({ type: 'details.saved' })}
          onStep={(direction) => rowActions.send({ type: 'details.step', direction })}
        />
      ) : null}
      {toDelete ? (
        <ConfirmDialog
          open={!deleting}
          danger
          closeOnInteractOutside={false}
          title={t`Delete document?`}
          description={t`${cutName(toDelete.name)} will be deleted with its file. This cannot be undone.`}
          confirmLabel={t`Delete`}
          cancelLabel={t`Cancel`}
          onConfirm={() => rowActions.send({ type: 'delete.confirm' })}
          onCancel={() => rowActions.send({ type: 'delete.cancel' })}
        />
      ) : null}
    </Suspense>
  )
}

/** Recent uploads: the error or empty state, or the table with its "show more" button. */
function LogTable() {
  const dashboard = useDashboard()
  const loading = useSelector(dashboard, (s) => s.hasTag('loading'))
  const failed = useSelector(dashboard, (s) => s.matches({ data: 'failed' }))
  const empty = useSelector(dashboard, (s) => s.context.logs.length === 0)
  const filtered = useSelector(
    dashboard,
    (s) => activeFilterCount(s.context.filters) > 0 || s.context.searchTerm.trim() !== '',
  )
  const hasMore = useSelector(dashboard, (s) => s.context.hasMore)
  const loadingMore = useSelector(dashboard, (s) => s.hasTag('loadingMore'))
  const { session } = useAppActors()
  const isPlatformAdmin = useSelector(session, (s) => s.context.user?.role === 'SAAS_ADMIN')
  const columns = useSortColumns()

  if (failed)
    return (
      <StateMessage
        message={<Trans>The documents could not be loaded.</Trans>}
        action={<Trans>Retry</Trans>}
        onAction={() => dashboard.send({ type: 'dashboard.retry' })}
      />
    )
  if (!loading && empty)
    return filtered ? (
      <StateMessage
        message={<Trans>No documents match your filters.</Trans>}
        action={<Trans>Clear all filters</Trans>}
        onAction={() => dashboard.send({ type: 'summary.reset' })}
      />
    ) : (
      <NoDocumentsYet />
    )

  return (
    <div className={phoneLabels}>
      <DataTable
        variant="embedded"
        busy={loading}
        head={<LogTableHead columns={columns} isPlatformAdmin={isPlatformAdmin} />}
        after={
          hasMore && !loading ? (
            <div className={css({ display: 'flex', justifyContent: 'center', p: '3' })}>
              <BusyButton
                variant="outline"
                size="sm"
                busy={loadingMore}
                onClick={() => dashboard.send({ type: 'rows.more' })}
              >
                <Trans>Show more</Trans>
              </BusyButton>
            </div>
          ) : null
        }
      >
        {loading ? (
          <LogSkeletonRows columns={columns.length + 1} />
        ) : (
          <LogRows isPlatformAdmin={isPlatformAdmin} />
        )}
      </DataTable>
    </div>
  )
}

/** On a phone (where each row is a card, see the table recipe) the invoice date and total say what they are. */
const phoneLabels = css({
  mdDown: {
    '& tbody td[data-label]:not(:empty)::before': {
      content: 'attr(data-label) ": "',
      color: 'fg.muted',
      fontSize: 'xs',
    },
  },
})

const stateMessage = css({
  p: '8',
  textAlign: 'center',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  alignItems: 'center',
})

/** A message in place of the table, with the one action that gets out of it. */
function StateMessage({
  message,
  action,
  onAction,
}: {
  message: ReactNode
  action: ReactNode
  onAction: () => void
}) {
  return (
    <div className={stateMessage}>
      <p className={css({ color: 'fg.muted' })}>{message}</p>
      <Button variant="outline" size="sm" onClick={onAction}>
        {action}
      </Button>
    </div>
  )
}

function NoDocumentsYet() {
  return (
    <div
      className={css({
        p: '10',
        textAlign: 'center',
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
        alignItems: 'center',
      })}
    >
      <p className={css({ fontWeight: 'medium' })}>
        <Trans>No documents yet</Trans>
      </p>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        <Trans>Upload your first invoice or document to see it here.</Trans>
      </p>
      <EmptyStateUploads />
    </div>
  )
}

/** The sortable columns, in their order on screen. */
function useSortColumns(): { key: SortColumn; label: string }[] {
  const { t } = useLingui()
  return [
    { key: 'name', label: t`Document` },
    { key: 'type', label: t`Type` },
    { key: 'supplier', label: t`Supplier` },
    { key: 'doc_date', label: t`Invoice date` },
    { key: 'total', label: t`Total incl. VAT` },
    { key: 'date', label: t`Uploaded date` },
    { key: 'status', label: t`Status` },
  ]
}

function LogTableHead({
  columns,
  isPlatformAdmin,
}: {
  columns: { key: SortColumn; label: string }[]
  isPlatformAdmin: boolean
}) {
  const dashboard = useDashboard()
  const sortBy = useSelector(dashboard, (s) => s.context.sortBy)
  const sortOrder = useSelector(dashboard, (s) => s.context.sortOrder)
  return (
    <>
      {columns.map((column) => (
        <SortableTh
          key={column.key}
          label={column.label}
          order={sortBy === column.key ? sortOrder : undefined}
          onSort={() => dashboard.send({ type: 'sort.toggle', column: column.key })}
        />
      ))}
      <Th>
        <Trans>Details</Trans>
      </Th>
      {isPlatformAdmin ? (
        <Th>
          <span className={css({ srOnly: true })}>
            <Trans>Actions</Trans>
          </span>
        </Th>
      ) : null}
    </>
  )
}

const bone = css({ h: '4', w: '24', borderRadius: 'sm', bg: 'bg.subtle', animation: 'pulse' })

/** Five placeholder rows while the first page loads (sortable columns and details). */
function LogSkeletonRows({ columns }: { columns: number }) {
  return [0, 1, 2, 3, 4].map((i) => (
    <tr key={`skeleton-${i}`} data-testid="skeleton-row">
      {Array.from({ length: columns }, (_, c) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Td key={c}>
          <div className={bone} />
        </Td>
      ))}
    </tr>
  ))
}

function LogRows({ isPlatformAdmin }: { isPlatformAdmin: boolean }) {
  const dashboard = useDashboard()
  const rowActions = useRowActions()
  const logs = useSelector(dashboard, (s) => s.context.logs)
  const { t, i18n } = useLingui()
  const columns = useSortColumns()
  const label = (key: SortColumn) => columns.find((c) => c.key === key)?.label
  const format = new Intl.DateTimeFormat(i18n.locale, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })
  const formatDay = new Intl.DateTimeFormat(i18n.locale, { month: 'short', day: 'numeric', year: 'numeric' })
  const formatAmount = new Intl.NumberFormat(i18n.locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
  return logs.map((log) => {
    const opens = hasDetails(log)
    const open = () => {
      rememberOpener(log)
      rowActions.send({ type: 'row.open', log })
    }
    return (
      <Tr
        key={log.id}
        {...(opens
          ? {
              tabIndex: 0,
              [ROW_KEY_ATTRIBUTE]: rowKey(log),
              className: openableRow,
              onClick: (e) => {
                // Its own buttons (View, delete) act by themselves.
                if (!(e.target as Element).closest('button, a, input')) open()
              },
              onKeyDown: (e) => {
                if (e.key === 'Enter' && e.target === e.currentTarget) open()
              },
            }
          : {})}
      >
        <Td>
          <span title={log.name} className={css({ display: 'block', maxW: '200px', truncate: true })}>
            {log.name}
          </span>
          <LogSource log={log} />
          <LogReason log={log} />
        </Td>
        <Td>{i18n._(LOG_TYPE_LABEL[log.type])}</Td>
        <Td>
          {log.supplier ? (
            <span title={log.supplier} className={css({ display: 'block', maxW: '160px', truncate: true })}>
              {log.supplier}
            </span>
          ) : null}
        </Td>
        <Td data-label={label('doc_date')}>
          {log.doc_date ? formatDay.format(calendarDay(log.doc_date)) : null}
        </Td>
        <Td
          data-label={label('total')}
          className={css({ textAlign: 'end', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' })}
        >
          {log.total == null ? null : formatAmount.format(log.total)}
        </Td>
        <Td>{format.format(new Date(log.date))}</Td>
        <Td>
          <span className={css({ display: 'inline-flex', flexWrap: 'wrap', gap: '1', alignItems: 'center' })}>
            <StatusBadge status={log.status} />
            <ReviewMarker
              log={log}
              onOpenDuplicate={(duplicate) => {
                rememberOpener(log)
                rowActions.send({ type: 'document.open', kind: duplicate.kind, id: duplicate.document_id })
              }}
            />
          </span>
        </Td>
        <Td>
          {opens ? (
            <button
              type="button"
              className={button({ variant: 'link', size: 'sm' })}
              aria-label={t`View ${log.name}`}
              onClick={open}
            >
              <Trans>View</Trans>
            </button>
          ) : null}
        </Td>
        {isPlatformAdmin ? (
          <Td>
            {canDeleteRow(log) ? (
              <button
                type="button"
                className={button({ variant: 'ghost', size: 'sm' })}
                aria-label={t`Delete ${log.name}`}
                onClick={() => rowActions.send({ type: 'row.delete', log })}
              >
                <TrashIcon />
              </button>
            ) : null}
          </Td>
        ) : null}
      </Tr>
    )
  })
}

/** A `YYYY-MM-DD` day as a local date (not UTC midnight, which is the day before west of Greenwich). */
function calendarDay(day: string) {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(y!, (m ?? 1) - 1, d ?? 1)
}

function EmptyStateUploads() {
  const { uploadDialog } = useAppActors()
  if (!uploadDialog) return null
  return (
    <div className={css({ display: 'flex', gap: '2', pt: '2', flexWrap: 'wrap', justifyContent: 'center' })}>
      <Button onClick={() => uploadDialog.send({ type: 'dialog.openInvoice' })}>
        <Trans>Upload Invoice</Trans>
      </Button>
      <Button variant="outline" onClick={() => uploadDialog.send({ type: 'dialog.openDocument' })}>
        <Trans>Upload Document</Trans>
      </Button>
    </div>
  )
}
