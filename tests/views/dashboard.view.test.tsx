/**
 * The dashboard statechart's paths, replayed through the rendered summary cards, search box,
 * sortable table and "Show more"; then the filter popover's paths through its controls, and the row
 * actions' paths through a row's buttons and dialogs (a platform administrator's view). The paths
 * follow what the screen offers: a row's buttons exist only while the rows are shown.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { expect } from 'vitest'
import { type AnyActorRef, type AnyMachineSnapshot, createActor, createEmptyActor, fromPromise } from 'xstate'
import type { LogEntry } from '../../contract'
import type { DetailsApi } from '../../src/api/details'
import {
  type DashboardContext,
  dashboardMachine,
  type SortColumn,
} from '../../src/machines/dashboard/dashboard.machine'
import {
  activeFilterCount,
  type FiltersContext,
  filtersMachine,
  isValidRange,
  NO_FILTERS,
} from '../../src/machines/dashboard/filters.machine'
import { type RowActionsContext, rowActionsMachine } from '../../src/machines/dashboard/row-actions.machine'
import { createDetailsImplementations } from '../../src/machines/details/details.implementations'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { toastNotify } from '../../src/ui/notify'
import { CompanyDashboardView } from '../../src/ui/views/dashboard/dashboard-view'
// Loaded up front: the view fetches them on first use, and a path should not wait for a chunk.
import '../../src/ui/views/dashboard/filter-popover'
import '../../src/ui/views/details/document-detail-dialog'
import '../../src/ui/components/confirm-dialog'
import { ada } from '../support/fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const entry = (id: number, status: string, documentId: number | null = id): LogEntry => ({
  id,
  document_id: documentId,
  type: 'Invoice',
  name: `invoice-${id}.pdf`,
  date: '2026-11-20T10:00:00.000Z',
  status,
  category: 'Invoices',
})
// Rows 8 and 9 cannot open their details: a fractional document id, and none at all.
// Row 1 needs review: its duplicate warning names an earlier expense.
const earlier = { document_id: 4, name: 'receipt-4.pdf', kind: 'expense' } as const
const firstPage = [
  { ...entry(1, 'completed'), warnings: ['duplicate', 'date_in_future'], duplicate: earlier },
  entry(2, 'processing'),
  entry(3, 'rejected'),
  entry(8, 'failed', 1.5),
  entry(9, 'completed', null),
]
const nextPage = [entry(9, 'completed', null), entry(10, 'pending'), entry(11, 'completed')]
const summary = { total: 7, pending: 2, failed: 2, review: 3 }
const ctx = (s: { context: unknown }) => s.context as DashboardContext
const button = (name: string | RegExp, hidden = false) => screen.queryByRole('button', { name, hidden })
const COLUMN_LABELS: Record<SortColumn, string> = {
  name: 'Document',
  type: 'Type',
  supplier: 'Supplier',
  doc_date: 'Invoice date',
  total: 'Total incl. VAT',
  date: 'Uploaded date',
  status: 'Status',
}

async function clickIfShown(user: User, name: string | RegExp) {
  const target = button(name)
  if (target) await user.click(target)
}

/** The table's body rows, by their document names (`hidden`: behind an open modal). */
const rowNames = (hidden: boolean) =>
  screen
    .queryAllByRole('row', { hidden })
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell', { hidden })[0]?.textContent ?? '')

function expectTable(s: AnyMachineSnapshot) {
  const c = ctx(s)
  expect(rowNames(false)).toEqual(c.logs.map((l) => l.name))
  const sorted = screen.getByRole('columnheader', { name: new RegExp(COLUMN_LABELS[c.sortBy]) })
  expect(sorted.getAttribute('aria-sort')).toBe(c.sortOrder === 'asc' ? 'ascending' : 'descending')
  expect(screen.getAllByRole('columnheader').filter((h) => h.hasAttribute('aria-sort'))).toHaveLength(1)
  // Finished rows offer deletion to a platform administrator; pending or processing ones do not.
  expect(button('Delete invoice-1.pdf')).not.toBeNull()
  expect(button('Delete invoice-2.pdf')).toBeNull()
}

function expectSummaryCards(s: AnyMachineSnapshot, hidden = false) {
  const c = ctx(s)
  expect(button(/^Total documents/, hidden)?.textContent).toBe(`Total documents${c.summary.total}`)
  expect(button(/^Pending/, hidden)?.getAttribute('aria-pressed')).toBe(
    String(c.filters.status === 'pending'),
  )
  expect(button(/^Failed/, hidden)?.getAttribute('aria-pressed')).toBe(String(c.filters.status === 'failed'))
  expect(button(/^To review/, hidden)?.getAttribute('aria-pressed')).toBe(
    String(c.filters.review === 'needed'),
  )
  expect(button(/^To review/, hidden)?.textContent).toBe(`To review${c.summary.review}`)
  const count = activeFilterCount(c.filters)
  expect(button(/^Filter/, hidden)?.textContent).toBe(count ? `Filter${count}` : 'Filter')
  const search = screen.getByRole('searchbox', { name: 'Search documents', hidden }) as HTMLInputElement
  expect(search.value).toBe(c.searchTerm)
}

/** A platform administrator's session, and a details dialog whose requests never answer (its own
 * paths are tested on their own). */
function adminActors() {
  const session = createActor(
    sessionMachine.provide({
      actors: {
        checkSession: fromPromise(async (): Promise<typeof ada | null> => ada),
        fetchUser: fromPromise(async () => ada),
      },
    }),
  ).start()
  const never = () => new Promise<never>(() => {})
  const details = new Proxy({}, { get: () => never }) as DetailsApi
  const machines = Promise.resolve(
    createDetailsImplementations({ details, notify: toastNotify, uploadQueue: {} as never }),
  )
  return testActors({ session, loadDetails: () => machines })
}

/** As a mouse does: the pointer reaching the stand-in loads the popover, then the press opens it. */
async function openFilterPopover(user: User) {
  await user.hover(screen.getByRole('button', { name: /^Filter/ }))
  await waitFor(() => expect(button(/^Filter/)?.getAttribute('data-scope')).toBe('popover'))
  await clickIfShown(user, /^Filter/)
  await screen.findByRole('dialog', { name: 'Filters' })
}
/** The filters in force on the dashboard of the path being replayed. */
let dashboardFilters: () => DashboardContext['filters'] = () => NO_FILTERS

const loaded = (s: AnyMachineSnapshot) => s.matches({ data: 'ready' }) || s.matches({ data: 'loadingMore' })
/** The table (and its sortable headers) shows while loading and once rows are there. */
const tableShown = (s: AnyMachineSnapshot) =>
  s.hasTag('loading') || (!s.matches({ data: 'failed' }) && ctx(s).logs.length > 0)

describeViewModel('dashboard view', {
  machine: dashboardMachine,
  input: { companyId: 7 },
  actors: ['fetchLogs', 'fetchMore'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: { notifyFailed: (_, p) => record(`notify:${p.searching ? 'search' : 'list'}Failed`) },
    }),
  mount: (machine, inspect, clock) => {
    const dashboard = createActor(machine, { input: { companyId: 7 }, inspect, clock })
    dashboard.start()
    dashboardFilters = () => dashboard.getSnapshot().context.filters
    return {
      element: inApp(<CompanyDashboardView dashboard={dashboard} companyId={7} />, adminActors()),
      actor: dashboard as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'search.input': async (user, event) => {
      const box = screen.getByRole('searchbox', { name: 'Search documents' })
      await user.clear(box)
      await user.type(box, String(event.term))
    },
    'summary.toggle': (user, event) => clickIfShown(user, event.status === 'failed' ? /^Failed/ : /^Pending/),
    'review.toggle': (user) => clickIfShown(user, /^To review/),
    'summary.reset': (user) => clickIfShown(user, /^Total documents/),
    'sort.toggle': (user, event) => clickIfShown(user, COLUMN_LABELS[event.column as SortColumn]),
    'filters.open': async (user, _event) => {
      // The popover opens with the filters in force; its own paths follow in the next suite.
      await openFilterPopover(user)
      const status = within(screen.getByRole('dialog', { name: 'Filters' })).getByLabelText('Status')
      expect((status as HTMLSelectElement).value).toBe(dashboardFilters().status)
      await user.keyboard('{Escape}')
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Filters' })).toBeNull())
    },
    // `filters.applied` and `filters.cleared` come from the popover's actor: sent as they are here.
    'dashboard.retry': (user) => clickIfShown(user, 'Retry'),
    'rows.more': (user) => clickIfShown(user, 'Show more'),
  },
  // What the screen offers: "Show more" only once rows are shown.
  allowed: (s, event) => {
    switch (event.type) {
      case 'rows.more':
        return loaded(s)
      case 'filters.open':
        return s.matches({ data: 'ready' })
      case 'sort.toggle':
        return tableShown(s)
      default:
        // Server answers, the popover's outcomes and what is always on screen.
        return true
    }
  },
  events: {
    'search.input': [{ type: 'search.input', term: 'acme' }],
    'summary.toggle': [{ type: 'summary.toggle', status: 'failed' }],
    'review.toggle': [{ type: 'review.toggle' }],
    // From the row actions (the details moving on): answered to them, nothing to see on the list.
    // From row 3, the last one with details shown, the next page loads first ("Show more" busy).
    'details.neighbour': [
      { type: 'details.neighbour', from: { kind: 'invoice', id: 1 }, direction: 1 },
      { type: 'details.neighbour', from: { kind: 'invoice', id: 3 }, direction: 1 },
    ],
    'sort.toggle': [{ type: 'sort.toggle', column: 'name' }],
    'filters.applied': [{ type: 'filters.applied', filters: { ...NO_FILTERS, status: 'failed' } }],
    'xstate.done.actor.fetchLogs': [
      { type: 'xstate.done.actor.fetchLogs', output: { logs: firstPage, hasMore: true, summary } },
    ],
    'xstate.error.actor.fetchLogs': [{ type: 'xstate.error.actor.fetchLogs', error: new Error('offline') }],
    'xstate.done.actor.fetchMore': [
      { type: 'xstate.done.actor.fetchMore', output: { logs: nextPage, hasMore: false } },
    ],
    'xstate.error.actor.fetchMore': [{ type: 'xstate.error.actor.fetchMore', error: new Error('offline') }],
  },
  contextKey: (c) => ({
    more: (c as DashboardContext).logs.length > firstPage.length,
    awaiting: (c as DashboardContext).neighbourAfterMore !== null,
  }),
  limit: 3000,
  views: {
    'data.loading': (s) => {
      expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5)
      expect(screen.getByRole('table', { hidden: true }).getAttribute('aria-busy')).toBe('true')
      expect(button('Show more')).toBeNull()
      expectSummaryCards(s)
    },
    'data.debouncing': (s) => {
      expectSummaryCards(s)
      expect(screen.queryAllByTestId('skeleton-row')).toHaveLength(0)
    },
    // A live event: what was shown stays, without a skeleton, until the rows reload.
    'data.refreshing': (s) => {
      expectSummaryCards(s)
      expect(screen.queryAllByTestId('skeleton-row')).toHaveLength(0)
    },
    'data.ready': (s) => {
      expectTable(s)
      expectSummaryCards(s)
      expect(button('Show more') !== null).toBe(ctx(s).hasMore)
    },
    'data.loadingMore': (s) => {
      expectTable(s)
      expect(button('Show more')?.getAttribute('aria-busy')).toBe('true')
    },
    'data.failed': () => {
      expect(screen.getByText('The documents could not be loaded.')).toBeDefined()
      expect(button('Retry')).not.toBeNull()
    },
  },
})

const popoverCtx = (s: { context: unknown }) => s.context as FiltersContext

describeViewModel('dashboard filter popover view', {
  machine: filtersMachine,
  // The graph's context; on screen the dashboard invokes the popover with itself.
  input: { dashboard: createEmptyActor() },
  actors: [],
  mount: (machine, inspect, clock) => {
    // The dashboard around the popover under test: its list answers at once.
    const dashboard = createActor(
      dashboardMachine.provide({
        actors: {
          fetchLogs: fromPromise(async () => ({ logs: firstPage, hasMore: true as boolean, summary })),
          filters: machine,
        },
      }),
      { input: { companyId: 7 }, inspect, clock },
    ).start()
    return {
      element: inApp(<CompanyDashboardView dashboard={dashboard} companyId={7} />, adminActors()),
      actor: dashboard.getSnapshot().children.filters as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'filters.open': (user) => openFilterPopover(user),
    'filters.edit': async (user, event) => {
      const patch = event.patch as Record<string, string>
      const popover = screen.getByRole('dialog', { name: 'Filters' })
      if (patch.status) await user.selectOptions(within(popover).getByLabelText('Status'), patch.status)
      if (patch.date) await user.selectOptions(within(popover).getByLabelText('Date'), patch.date)
      if (patch.from)
        fireEvent.change(within(popover).getByLabelText('From'), { target: { value: patch.from } })
      if (patch.to) fireEvent.change(within(popover).getByLabelText('To'), { target: { value: patch.to } })
    },
    'filters.apply': (user) => clickIfShown(user, 'Apply Filters'),
    'filters.reset': (user) => clickIfShown(user, 'Reset'),
    'filters.close': (user) => user.keyboard('{Escape}'),
  },
  events: {
    // The dashboard sends the filters in force; a path reopens the popover on those it applied.
    'filters.open': [{ type: 'filters.open', filters: NO_FILTERS }],
    'filters.edit': [
      { type: 'filters.edit', patch: { status: 'failed' } },
      { type: 'filters.edit', patch: { date: 'custom', from: '2026-11-20', to: '2026-11-01' } },
    ],
  },
  contextKey: (c) => {
    const x = c as FiltersContext
    return { changed: JSON.stringify(x.draft) !== JSON.stringify(x.filters), valid: isValidRange(x.draft) }
  },
  views: {
    closed: () => expect(screen.queryByRole('dialog', { name: 'Filters' })).toBeNull(),
    open: (s) => {
      const popover = screen.getByRole('dialog', { name: 'Filters' })
      const c = popoverCtx(s)
      expect((within(popover).getByLabelText('Status') as HTMLSelectElement).value).toBe(c.draft.status)
      const apply = within(popover).getByRole('button', { name: 'Apply Filters' }) as HTMLButtonElement
      expect(apply.disabled).toBe(!s.can({ type: 'filters.apply' }))
      const badRange = c.draft.date === 'custom' && !!c.draft.from && !!c.draft.to && !isValidRange(c.draft)
      expect(within(popover).queryByText('From cannot be later than To.') !== null).toBe(badRange)
    },
  },
})

const rowCtx = (s: { context: unknown }) => s.context as RowActionsContext
/** Waits for a row's button: the list reloads (skeleton rows) after the details close or a deletion. */
const clickRowButton = async (user: User, name: string) =>
  user.click(await screen.findByRole('button', { name }))
/** The dashboard around the row actions of the path being replayed. */
let rowsDashboard: () => AnyMachineSnapshot
/** The rows and summary cards stay behind a modal, which hides them from assistive technology. */
function expectRowsBehindModal() {
  expect(rowNames(true)).toEqual(firstPage.map((l) => l.name))
  expectSummaryCards(rowsDashboard(), true)
}

describeViewModel('dashboard row actions view', {
  machine: rowActionsMachine,
  // The graph's context; on screen the dashboard invokes the row actions with its own company and self.
  input: { companyId: 7, dashboard: createEmptyActor() },
  actors: ['deleteRow'],
  provide: (machine, _controls, record) =>
    machine.provide({ actions: { notify: (_, p) => record(`notify:${p.notice}`) } }),
  mount: (machine, inspect, clock) => {
    // The dashboard around the row actions under test: its list answers at once with the first page.
    // Its answer to the details moving on is the graph's `details.move` (replayed as sent), so the
    // path can stand in `stepping`; the machine tests check the dashboard's own answer.
    const dashboard = createActor(
      dashboardMachine.provide({
        actors: {
          fetchLogs: fromPromise(async () => ({ logs: firstPage, hasMore: true as boolean, summary })),
          rowActions: machine,
        },
        actions: { moveDetails: () => {} },
      }),
      { input: { companyId: 7 }, inspect, clock },
    ).start()
    rowsDashboard = () => dashboard.getSnapshot()
    return {
      element: inApp(<CompanyDashboardView dashboard={dashboard} companyId={7} />, adminActors()),
      actor: dashboard.getSnapshot().children.rowActions as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'row.open': (user, event) => clickRowButton(user, `View ${(event.log as LogEntry).name}`),
    'row.delete': (user, event) => clickRowButton(user, `Delete ${(event.log as LogEntry).name}`),
    'details.close': (user) => clickIfShown(user, 'Close details'),
    'delete.confirm': (user) => clickIfShown(user, 'Delete'),
    'delete.cancel': (user) => clickIfShown(user, 'Cancel'),
    'document.open': async (user) => {
      await user.hover(await screen.findByText('Needs review'))
      await user.click(screen.getByRole('button', { name: 'receipt-4.pdf' }))
    },
  },
  events: {
    'document.open': [{ type: 'document.open', kind: 'expense', id: 4 }],
    'row.open': [
      { type: 'row.open', log: entry(1, 'completed') },
      { type: 'row.open', log: entry(8, 'failed', 1.5) },
      { type: 'row.open', log: entry(9, 'completed', null) },
    ],
    'row.delete': [{ type: 'row.delete', log: entry(3, 'rejected') }],
    // J / K or "Save and next" in the details (the detail view's own tests press them), and the answer.
    'details.step': [{ type: 'details.step', direction: 1 }],
    'details.move': [
      { type: 'details.move', target: { kind: 'invoice', id: 2 } },
      { type: 'details.move', target: null },
    ],
    'xstate.done.actor.deleteRow': [{ type: 'xstate.done.actor.deleteRow', output: undefined }],
    'xstate.error.actor.deleteRow': [{ type: 'xstate.error.actor.deleteRow', error: new Error('forbidden') }],
  },
  views: {
    idle: () => {
      expect(screen.queryByRole('alertdialog')).toBeNull()
    },
    viewing: (s) => {
      // A row's own details, those of the earlier document its duplicate warning names, or the next row's.
      const { detail } = rowCtx(s)
      expect([
        { kind: 'invoice', id: 1 },
        { kind: 'expense', id: 4 },
        { kind: 'invoice', id: 2 },
      ]).toContainEqual(detail)
      const title = detail?.kind === 'expense' ? 'Expense details' : 'Invoice details'
      expect(screen.getByRole('dialog', { name: title })).toBeDefined()
      expectRowsBehindModal()
    },
    // Waiting for the dashboard to name the next row: the rows stay behind the details.
    stepping: () => expectRowsBehindModal(),
    confirmingDelete: () => {
      const confirm = screen.getByRole('alertdialog', { name: 'Delete document?' })
      expect(within(confirm).getByText(/invoice-3\.pdf will be deleted with its file/)).toBeDefined()
      expectRowsBehindModal()
    },
    deleting: (s) => {
      expect(s.hasTag('deleting')).toBe(true)
      expectRowsBehindModal()
    },
  },
})
