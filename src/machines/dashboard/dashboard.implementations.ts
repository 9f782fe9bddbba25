/**
 * The dashboard's machine filled from the logs API, the notices and the upload queue: its
 * `uploads` actor passes on the queue's `uploads.settled` (each upload that completes or fails
 * reloads the list), for as long as the dashboard runs. Its live updates read the events API and
 * tell the upload queue when they are up and which document changed.
 */
import { type ActorRefFrom, type EventObject, fromCallback, fromPromise, type InspectionEvent } from 'xstate'
import type { Api } from '../../api'
import { retryImport } from '../../api/code-chunks'
import type { EventsApi } from '../../api/events'
import { type Notify, notice } from '../shared/notice'
import type { UploadQueueActor } from '../uploads/upload-queue.machine'
import { dashboardMachine, toQuery } from './dashboard.machine'
import { exportMachine } from './export.machine'
import type { LiveUpdatesInput } from './live-updates.machine'
import { type DetailTarget, rowActionsMachine } from './row-actions.machine'

export type DashboardActor = ActorRefFrom<typeof dashboardMachine>

const noop = () => {}

export type DashboardDeps = {
  api: Pick<Api, 'logs'>
  notify: Notify
  /** The upload queue whose accepted and settled uploads reload the dashboard (none in tests that do not upload). */
  uploads?: Pick<UploadQueueActor, 'on' | 'send'>
  /** Loads the company's live events (none in tests that do not stream them: the queue keeps polling). */
  events?: () => Promise<EventsApi>
  /** The inspector, given to the live updates' actor too. */
  inspect?: ((event: InspectionEvent) => void) | undefined
  /**
   * The document the upload panel's View asked for while this company's dashboard was not on
   * screen (another page, another company selected), taken once: the dashboard opens it as it starts.
   */
  takeViewRequest?: (companyId: number) => DetailTarget | null
}

export function createDashboardImplementations({
  api,
  notify,
  uploads,
  takeViewRequest,
  events,
  inspect,
}: DashboardDeps) {
  // The live updates run in a chunk of their own, loaded once the dashboard runs (the first screen
  // needs none of it): their machine runs beside the dashboard, which it sends `live.changed`.
  const liveUpdates = fromCallback<EventObject, LiveUpdatesInput>(({ input }) => {
    // (Fetched again once the network is back, when the dashboard opened without it.)
    const running =
      events &&
      retryImport(() => import('./live-updates.implementations')).then((flow) =>
        flow.runLiveUpdates(input, { events, uploads, inspect }),
      )
    return () => void running?.then((stop) => stop(), noop)
  })
  return {
    dashboard: dashboardMachine.provide({
      actors: {
        liveUpdates,
        uploadEvents: fromCallback(({ sendBack, input }) => {
          const subscriptions = [
            uploads?.on('uploads.settled', (event) => sendBack(event)),
            // Another company's upload (the selection changed while it was sent) is not this list's.
            uploads?.on('uploads.accepted', (event) => {
              if (event.companyId === input.companyId) sendBack({ type: 'uploads.accepted' })
            }),
            uploads?.on('uploads.view', ({ companyId, kind, id }) => {
              if (companyId !== input.companyId) return
              takeViewRequest?.(companyId)
              sendBack({ type: 'document.open', kind, id })
            }),
          ]
          const requested = takeViewRequest?.(input.companyId)
          if (requested) sendBack({ type: 'document.open', ...requested })
          return () => {
            for (const subscription of subscriptions) subscription?.unsubscribe()
          }
        }),
        fetchLogs: fromPromise(async ({ input }) => {
          // The summary counts every row of the company on the server; the table is a page of the filtered rows.
          const [page, summary] = await Promise.all([
            api.logs.list(input.companyId, toQuery(input, new Date())),
            api.logs.summary(input.companyId),
          ])
          const { total, pending, failed, to_review } = summary
          return { ...page, summary: { total, pending, failed, review: to_review ?? 0 } }
        }),
        fetchMore: fromPromise(({ input }) => api.logs.list(input.companyId, toQuery(input, new Date()))),
        // The row actions (details, deletion) run in their own actor, which the dashboard invokes.
        rowActions: rowActionsMachine.provide({
          actors: { deleteRow: fromPromise(({ input }) => api.logs.remove(input.companyId, input.log)) },
          actions: {
            notify: (_, { notice: code, value }) =>
              notify(notice(`dashboard.${code}`, { values: { value: value ?? '' } })),
          },
        }),
      },
      actions: {
        // A failure that says nothing of itself leaves the notice's own text.
        notifyFailed: (_, { searching, failure }) =>
          notify(
            notice(searching ? 'logs.searchFailed' : 'logs.fetchFailed', {
              ...(failure.code === 'unknownError' ? {} : { failure }),
            }),
          ),
      },
    }),
  }
}

/** The export dialog's machine: its download opens the export's address (the file streams). */
export function createExportImplementations({
  api,
  notify,
  download,
}: {
  api: Pick<Api, 'exports'>
  notify: Notify
  download: (url: string) => void
}) {
  return exportMachine.provide({
    actions: {
      download: (_, request) =>
        download(
          api.exports.url({
            kind: request.kind,
            companyId: request.companyId,
            separator: request.separator,
            ...(request.status ? { status: request.status } : {}),
            ...(request.startDate ? { startDate: request.startDate } : {}),
            ...(request.endDate ? { endDate: request.endDate } : {}),
          }),
        ),
      notify: (_, { kind }) =>
        notify(notice(kind === 'invoice' ? 'dashboard.invoicesExported' : 'dashboard.expensesExported')),
    },
  })
}
