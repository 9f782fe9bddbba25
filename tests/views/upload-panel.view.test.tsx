/**
 * The upload queue's paths replayed through the floating progress panel and its upload items.
 * The queue runs with its real item children; only their
 * boundary is fake: the upload call (one controllable promise per item) and the bulk status call
 * (the harness's `checkStatus`, polled on a SimulatedClock).
 *
 * The graph walks the queue alone, where a child's report (`upload.changed`) is an input. Replayed
 * live, each report is produced the way it happens in the app: the upload call is answered, fails
 * or reports the body sent; the 3 s poll answers; a person presses the row's cancel button.
 */
import { readFileSync } from 'node:fs'
import { i18n } from '@lingui/core'
import { generateMessageId } from '@lingui/message-utils/generateMessageId'
import { I18nProvider } from '@lingui/react'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeAll, expect, it } from 'vitest'
import { type AnyMachineSnapshot, and, createActor, fromPromise, or, stateIn } from 'xstate'
import type { QueuedFile, UploadAnswer } from '../../contract'
import type { AppActors } from '../../src/composition'
import { sessionMachine } from '../../src/machines/session/session.machine'
import type { Reason } from '../../src/machines/shared/failure'
import { uploadDialogMachine } from '../../src/machines/uploads/upload-dialog.machine'
import {
  type UploadCallInput,
  type UploadStatus,
  uploadItemMachine,
} from '../../src/machines/uploads/upload-item.machine'
import {
  POLL_INTERVAL_MS,
  type QueueEntry,
  type StatusAnswer,
  type UnsentUpload,
  type UploadQueueActor,
  uploadQueueMachine,
} from '../../src/machines/uploads/upload-queue.machine'
import { AppActorsProvider } from '../../src/ui/app-context'
import { failureText } from '../../src/ui/message-texts'
import { UploadPanel } from '../../src/ui/views/uploads/upload-panel'
import type { ControlledActors, SimulatedClock } from '../support/graph'
import { testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const COMPANY = 7
/** 9:41:20 and 9:43:05 local time on 15 Jan 2026: two batches, two minutes apart. */
const FIRST_BATCH = new Date(2026, 0, 15, 9, 41, 20).getTime()
const SECOND_BATCH = new Date(2026, 0, 15, 9, 43, 5).getTime()

/** A file that serialises as its name: the graph tells event samples apart by their JSON. */
const file = (name: string, size: number, type: string) =>
  Object.assign(new File([new Uint8Array(size)], name, { type }), { toJSON: () => name })

/** What the panel must show for each file, stated independently of the formatting code. */
const SHOWN: Record<string, { size: string; category: string }> = {
  'releve-janvier.pdf': { size: '512 B', category: 'Invoices' },
  'ticket-taxi.pdf': { size: '1.5 KB', category: 'Expenses' },
  'contrat-bail.docx': { size: '5.3 MB', category: 'HR' },
  'scan-facture.png': { size: '2.0 MB', category: 'Invoices' },
  'note-frais.pdf': { size: '2.0 KB', category: 'Expenses' },
  'taxi.pdf': { size: '1.0 KB', category: 'Expenses' },
}
const queued = (
  name: string,
  size: number,
  type: string,
  documentType: QueuedFile['documentType'],
  category: string,
): QueuedFile => ({ file: file(name, size, type), documentType, category })
/** One file first, then three a minute and a half later: one of them waits for a free slot. */
const firstBatch = [queued('releve-janvier.pdf', 512, 'application/pdf', 'invoice', 'Invoices')]
const secondBatch = [
  queued('ticket-taxi.pdf', 1536, 'application/pdf', 'expense', 'Expenses'),
  queued('contrat-bail.docx', Math.round(5.25 * 1024 * 1024), 'application/msword', 'document', 'RH'),
  queued('scan-facture.png', 2 * 1024 * 1024, 'image/png', 'invoice', 'Invoices'),
]

/** A file a reload found in the browser's storage, queued the evening before and never answered. */
const RESTORED: UnsentUpload = {
  ...queued('note-frais.pdf', 2048, 'application/pdf', 'expense', 'Expenses'),
  key: 'kept-key',
  companyId: COMPANY,
  createdAt: FIRST_BATCH - 14 * 60 * 60_000,
}

/** A second file the same reload left unsent: with two, the header sends all again. */
const RESTORED_TOO: UnsentUpload = {
  ...RESTORED,
  ...queued('taxi.pdf', 1024, 'application/pdf', 'expense', 'Expenses'),
  key: 'kept-key-2',
}

const STATUS_LABEL: Record<UploadStatus, string> = {
  pending: 'Pending',
  unsent: 'Not sent',
  uploading: 'Uploading',
  waiting: 'Waiting for network',
  in_progress: 'Sent',
  processing: 'Processing',
  success: 'Completed',
  error: 'Failed',
  cancelled: 'Cancelled',
}
const ACTIVE: UploadStatus[] = ['pending', 'uploading', 'waiting', 'in_progress', 'processing']
/** Progress while the body is being sent (the fake upload call reports it once started). */
const SENDING_PROGRESS = 40
/** The server's id for an upload: 11 for upload-1, 12 for upload-2, … */
const documentIdOf = (id: string) => 10 + Number(id.slice('upload-'.length))

/** "09:41 AM": the en hour and minute, computed without the app's formatter. */
/** The upload panel over a running queue, with the app's actors around it. */
function panelFor(
  queue: AppActors['uploadQueue'],
  dialog: AppActors['uploadDialog'] = createActor(uploadDialogMachine).start(),
) {
  return (
    <I18nProvider i18n={i18n}>
      <AppActorsProvider
        value={testActors({ session: createActor(sessionMachine), uploadQueue: queue, uploadDialog: dialog })}
      >
        <UploadPanel />
      </AppActorsProvider>
    </I18nProvider>
  )
}

function clockTime(ms: number) {
  const d = new Date(ms)
  const h = d.getHours()
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(h % 12 || 12)}:${pad(d.getMinutes())} ${h < 12 ? 'AM' : 'PM'}`
}

// ── The boundary of the live queue, reset by each path ──────────────────────────────────────

type PendingUpload = {
  resolve: (answer: UploadAnswer) => void
  reject: (error: Error) => void
  item: UploadCallInput['item']
}
let live: {
  queue: UploadQueueActor
  clock: SimulatedClock
  controls: ControlledActors
  /** The upload call of each item, by item id, until it settles. */
  uploads: Map<string, PendingUpload>
}

const fakeUpload = (uploads: Map<string, PendingUpload>) =>
  fromPromise<UploadAnswer, UploadCallInput>(
    ({ input }) =>
      new Promise((resolve, reject) => {
        uploads.set(input.item.id, { resolve, reject, item: input.item })
        input.item.send({ type: 'upload.progress', progress: SENDING_PROGRESS })
      }),
  )

function uploadCall(id: string) {
  const call = live.uploads.get(id)
  if (!call) throw new Error(`No upload call for ${id}`)
  return call
}

function entryOf(id: string): QueueEntry {
  const entry = live.queue.getSnapshot().context.uploads.find((u) => u.id === id)
  if (!entry) throw new Error(`No upload ${id} in the live queue`)
  return entry
}

/** Presses a button from the keyboard: it must be focusable and named. */
async function press(user: User, button: HTMLElement) {
  act(() => button.focus())
  expect(document.activeElement).toBe(button)
  await user.keyboard('{Enter}')
}

/** The 3 s poll fires; the status call answers for this one document only. */
async function pollAnswers(entry: QueueEntry, status: 'COMPLETED' | 'FAILED', messages: string[]) {
  live.clock.increment(POLL_INTERVAL_MS)
  await waitFor(() => expect(live.controls.isPending('checkStatus')).toBe(true))
  const answer: StatusAnswer = {
    kind: entry.documentType,
    companyId: entry.companyId,
    statuses: [{ id: entry.documentId!, status, errors: messages.length ? ['failed'] : [], messages }],
  }
  live.controls.resolve('checkStatus', [answer])
}

type Report = { id: string; status: UploadStatus; error: Reason | null }

/** Produces a child's report the way the app does (see the file's doc block). */
async function report(user: User, event: Report) {
  const snapshot = live.queue.getSnapshot()
  const args = { context: snapshot.context, event }
  const canHappen = isCallReport(args) || (isPollReport(args) && snapshot.matches({ polling: 'waiting' }))
  // The graph asked for a report this upload cannot make now (it ignored it too): nothing happens.
  if (!canHappen) return
  const { id, status, error } = event
  const from = entryOf(id).status
  if (status === 'in_progress') uploadCall(id).item.send({ type: 'upload.sent' })
  else if (status === 'processing') uploadCall(id).resolve({ id: documentIdOf(id), status: 'PROCESSING' })
  else if (status === 'cancelled') {
    const name = entryOf(id).fileName
    await press(
      user,
      screen.getByRole('button', { name: from === 'unsent' ? `Remove ${name}` : `Cancel upload of ${name}` }),
    )
  } else if (status === 'waiting')
    uploadCall(id).reject(new DOMException('Upload failed', 'NetworkError') as unknown as Error)
  else if (from === 'processing')
    await pollAnswers(
      entryOf(id),
      status === 'success' ? 'COMPLETED' : 'FAILED',
      error ? [error.message] : [],
    )
  else if (status === 'success') uploadCall(id).resolve({ id: documentIdOf(id), status: 'COMPLETED' })
  else uploadCall(id).reject(new Error(error?.message ?? 'Upload failed'))
}

// ── The graph's view of the children: only the reports their lifecycle can produce ───────────

/** Item lifecycle as the queue sees it; processing ends only by a poll answer. */
const BY_UPLOAD_CALL: Partial<Record<UploadStatus, UploadStatus[]>> = {
  uploading: ['in_progress', 'processing', 'success', 'error', 'waiting'],
  in_progress: ['processing', 'success', 'error', 'waiting'],
}
/** Where a row's ✕ is on screen: it cancels or (an unsent file) removes. */
const CANCELLABLE: UploadStatus[] = ['uploading', 'waiting', 'unsent']
type Args = { context: { uploads: QueueEntry[]; panelOpen: boolean; nextId: number }; event: unknown }
const reported = ({ context, event }: Args) => {
  const e = event as Report
  return { from: context.uploads.find((u) => u.id === e.id)?.status, to: e.status, open: context.panelOpen }
}
const isCallReport = (args: Args) => {
  const { from, to, open } = reported(args)
  if (to === 'cancelled') return from !== undefined && CANCELLABLE.includes(from) && open // the row's button is on screen
  return from !== undefined && (BY_UPLOAD_CALL[from] ?? []).includes(to)
}
const isPollReport = (args: Args) => {
  const { from, to } = reported(args)
  return from === 'processing' && (to === 'success' || to === 'error')
}
/** The first batch, then the second, once each: bounds the graph (the person stops adding there). */
const inOrder = (context: { nextId: number }, params: { files: QueuedFile[] }) =>
  params.files === firstBatch ? context.nextId === 1 : params.files !== secondBatch || context.nextId === 2
const queueOriginal = uploadQueueMachine.implementations.guards
const canQueueNow = (p: { files: QueuedFile[]; companyId: number | null }) =>
  p.files.length > 0 && p.companyId !== null
const model = uploadQueueMachine.provide({
  guards: {
    // Only the poll's answer ends processing, and an answer leaves `checking` for `waiting`.
    isKnownUpload: or([isCallReport, and([isPollReport, stateIn({ polling: 'waiting' })])]),
    canQueue: (args, params) =>
      queueOriginal.canQueue!(args as never, params) && inOrder(args.context, params),
  },
})

// ── What a person sees ───────────────────────────────────────────────────────────────────────

const panel = () => screen.queryByRole('region', { name: 'Uploads' })

/** What the replayed paths put on screen, checked once they have all run. */
const seen = new Set<string>()

function expectRow(row: HTMLElement, u: QueueEntry) {
  const text = row.textContent ?? ''
  const shown = SHOWN[u.fileName]!
  expect(within(row).getByTitle(u.fileName).textContent).toBe(u.fileName)
  expect(text).toContain(STATUS_LABEL[u.status])
  // Size · category, then the completion time once it ended (success or error), never before.
  const meta = within(row).getByText(shown.size).parentElement!.textContent
  if (u.status === 'success' || u.status === 'error') {
    expect(u.completedAt).not.toBeNull()
    expect(meta).toBe(`${shown.size}·${shown.category}·${clockTime(u.completedAt!)}`)
  } else expect(meta).toBe(`${shown.size}·${shown.category}`)
  if (u.status === 'error') expect(text).toContain(failureText(u.error!))
  const bar = within(row).queryByRole('progressbar', { name: `Progress of ${u.fileName}` })
  if (u.status === 'uploading') expect(bar?.getAttribute('aria-valuenow')).toBe(String(SENDING_PROGRESS))
  else if (u.status === 'in_progress') expect(bar?.getAttribute('aria-valuenow')).toBe('100')
  else if (u.status === 'processing') {
    // Indeterminate while the server works: a bar without a value.
    expect(bar).not.toBeNull()
    expect(bar!.hasAttribute('aria-valuenow')).toBe(false)
  } else expect(bar).toBeNull()
  const cancel = within(row).queryByRole('button', { name: `Cancel upload of ${u.fileName}` })
  expect(cancel !== null).toBe(u.status === 'uploading' || u.status === 'waiting')
  const remove = within(row).queryByRole('button', { name: `Remove ${u.fileName}` })
  const resend = within(row).queryByRole('button', { name: `Send again: ${u.fileName}` })
  expect(remove !== null && resend !== null).toBe(u.status === 'unsent')
  expect(remove !== null || resend !== null).toBe(u.status === 'unsent')
}

function expectPanel(s: AnyMachineSnapshot) {
  const { uploads, panelOpen, unseen } = s.context as {
    uploads: QueueEntry[]
    panelOpen: boolean
    unseen: boolean
  }
  const region = panel()
  if (!uploads.length) {
    expect(region).toBeNull()
    return
  }
  expect(region).not.toBeNull()
  const active = uploads.filter((u) => ACTIVE.includes(u.status)).length
  const toggle = within(region!).getByRole('button', { expanded: panelOpen })
  expect(toggle.textContent).toContain(
    uploads.some((u) => u.status === 'waiting')
      ? 'Waiting for network'
      : active
        ? `Uploading ${active} of ${uploads.length}`
        : `Uploads (${uploads.length})`,
  )
  expect(toggle.textContent).toContain(panelOpen ? 'Collapse' : 'Expand')
  // The pulse dot: something ended while the panel was collapsed, and it is still collapsed.
  const dot = within(region!).queryByRole('img', { name: 'New results' })
  expect(dot !== null).toBe(unseen)
  if (unseen) {
    expect(panelOpen).toBe(false)
    seen.add('pulse dot')
  }
  within(region!).getByRole('button', { name: 'Clear completed' })
  within(region!).getByRole('button', { name: 'Clear all' })
  // Several unsent files: one press sends them all again.
  const unsent = uploads.filter((u) => u.status === 'unsent').length
  expect(within(region!).queryByRole('button', { name: 'Send all again' }) !== null).toBe(unsent > 1)

  const batches = within(region!).queryAllByRole('region')
  const rows = within(region!).queryAllByRole('listitem')
  if (!panelOpen) {
    expect(batches).toEqual([])
    expect(rows).toEqual([])
    seen.add('collapsed')
    return
  }
  seen.add(`${batches.length} batch(es)`)
  for (const u of uploads) seen.add(`row ${u.status}`)
  // Batches by the minute they were queued in, newest first; counts per status; rows in order.
  const minutes = [...new Set(uploads.map((u) => Math.floor(u.createdAt / 60_000)))].sort((a, b) => b - a)
  expect(batches.map((b) => b.getAttribute('aria-label'))).toEqual(minutes.map((m) => clockTime(m * 60_000)))
  for (const [i, minute] of minutes.entries()) {
    const batch = batches[i]!
    const members = uploads.filter((u) => Math.floor(u.createdAt / 60_000) === minute)
    const header = batch.firstElementChild!.textContent ?? ''
    for (const status of Object.keys(STATUS_LABEL) as UploadStatus[]) {
      const count = members.filter((u) => u.status === status).length
      if (count) expect(header).toContain(`${STATUS_LABEL[status]}: ${count}`)
      else expect(header).not.toContain(`${STATUS_LABEL[status]}:`)
    }
    const batchRows = within(batch).getAllByRole('listitem')
    expect(batchRows.map((r) => within(r).getAllByTitle(/./)[0]!.textContent)).toEqual(
      members.map((u) => u.fileName),
    )
    for (const [j, u] of members.entries()) expectRow(batchRows[j]!, u)
  }
}

// The panel's chunk is fetched on the first upload; fetched here so that the first path does not wait.
beforeAll(() => import('../../src/ui/views/uploads/upload-panel-content'))

describeViewModel('upload progress panel', {
  machine: model,
  actors: ['checkStatus'],
  provide: (machine, controls) => {
    const uploads = new Map<string, PendingUpload>()
    live = { ...live, controls, uploads }
    return machine.provide({
      // The live queue keeps the app's guards; the graph's only describe what children can report.
      guards: { isKnownUpload: queueOriginal.isKnownUpload, canQueue: queueOriginal.canQueue } as never,
      actors: {
        uploadItem: uploadItemMachine.provide({
          actors: { upload: fakeUpload(uploads) },
          // The poll's clock must not also send a waiting upload again: only the browser's
          // `online` does here (the back-off is the item machine's own test).
          delays: { retryDelay: 24 * 60 * 60_000 },
        }),
      },
    })
  },
  mount: (machine, inspect, clock) => {
    const queue = createActor(machine, { inspect, clock }).start() as unknown as UploadQueueActor
    live = { ...live, queue, clock }
    const dialog = createActor(uploadDialogMachine).start()
    return {
      element: panelFor(queue, dialog),
      actor: queue,
    }
  },
  render: (element) => render(element),
  events: {
    'uploads.add': [
      { type: 'uploads.add', files: firstBatch, companyId: COMPANY, at: FIRST_BATCH },
      { type: 'uploads.add', files: secondBatch, companyId: COMPANY, at: SECOND_BATCH },
      // Refused (no company, nothing selected): stamped so that a queued entry from them would show.
      { type: 'uploads.add', files: firstBatch, companyId: null, at: 99 },
      { type: 'uploads.add', files: [], companyId: COMPANY, at: 98 },
    ],
    'upload.changed': [
      { type: 'upload.changed', id: 'upload-1', status: 'in_progress', error: null },
      { type: 'upload.changed', id: 'upload-1', status: 'processing', documentId: 11, error: null },
      { type: 'upload.changed', id: 'upload-1', status: 'success', documentId: 11, error: null },
      {
        type: 'upload.changed',
        id: 'upload-1',
        status: 'error',
        error: { code: 'uploadFailed', message: 'Upload failed' },
      },
      { type: 'upload.changed', id: 'upload-1', status: 'cancelled', error: null },
      { type: 'upload.changed', id: 'upload-1', status: 'waiting', error: null },
    ].map((e) => ({ documentId: null, completedAt: null, answered: false, ...e })),
    // The storage's file, found as the queue starts; sent again or removed from its row.
    'uploads.restored': [
      { type: 'uploads.restored', uploads: [RESTORED] },
      { type: 'uploads.restored', uploads: [RESTORED, RESTORED_TOO] },
    ],
    'upload.resend': [{ type: 'upload.resend', id: 'upload-1' }],
    // The browser's `online` event.
    'network.online': [{ type: 'network.online' }],
    'network.offline': [{ type: 'network.offline' }],
    // Cancelling is a person's press on the row, replayed as the `cancelled` report above.
    'upload.cancel': [],
    'upload.view': [{ type: 'upload.view', id: 'upload-1' }],
    // The dashboard's live updates of the company: the panel shows the same whatever polls.
    'live.up': [{ type: 'live.up', companyId: COMPANY }],
    'live.down': [{ type: 'live.down', companyId: COMPANY }],
    'document.changed': [{ type: 'document.changed', companyId: COMPANY, documentId: 11 }],
    // An item's processed/failed toast request: shown only while the panel is collapsed.
    'upload.notice': [{ type: 'upload.notice', notice: 'processed', fileName: 'facture.pdf' }],
    'xstate.done.actor.checkStatus': [
      {
        type: 'xstate.done.actor.checkStatus',
        // Still processing: the poll goes on.
        output: [
          { kind: 'invoice', companyId: COMPANY, statuses: [{ id: 11, status: 'PROCESSING', errors: [] }] },
        ] satisfies StatusAnswer[],
      },
    ],
    'xstate.error.actor.checkStatus': [
      { type: 'xstate.error.actor.checkStatus', error: new Error('offline') },
    ],
  },
  contextKey: (c) => {
    const { uploads, panelOpen, unseen, liveCompanyId } = c as {
      uploads: QueueEntry[]
      panelOpen: boolean
      unseen: boolean
      liveCompanyId: number | null
    }
    return { uploads: uploads.map((u) => `${u.id}:${u.status}`), panelOpen, unseen, live: liveCompanyId }
  },
  limit: 5000,
  // The live updates change only what is polled: followed from the empty list and while an upload
  // processes, not from every state of the panel.
  allowed: (s, event) => {
    const uploads = s.context.uploads as QueueEntry[]
    const has = (status: UploadStatus) => uploads.some((u) => u.status === status)
    if (event.type === 'uploads.restored') return uploads.length === 0
    // Two files restored: they are sent again together from the header, and the walk ends there.
    if (uploads.some((u) => u.key === RESTORED_TOO.key))
      return event.type === 'uploads.resendAll' && has('unsent')
    if (event.type === 'network.online') return has('waiting')
    // The connection breaks while the first file alone is listed, open (the queue's own test has
    // the slots a waiting upload keeps; the closed panel shows its header alone).
    const breaks =
      event.type === 'network.offline' ||
      (event.type === 'upload.changed' && (event as unknown as Report).status === 'waiting')
    if (breaks && !(s.context.panelOpen && uploads.length === 1)) return false
    if (event.type === 'network.offline') return has('uploading') || has('in_progress')
    // Sent again from its row's button: the list is open.
    if (event.type === 'upload.resend') return has('unsent') && s.context.panelOpen
    if (event.type === 'uploads.resendAll')
      return uploads.filter((u) => u.status === 'unsent').length > 1 && s.context.panelOpen
    return (
      !['live.up', 'live.down', 'document.changed'].includes(event.type) ||
      uploads.length === 0 ||
      has('processing')
    )
  },
  ui: {
    // Queued from the upload dialog (its own test); past the bound the person adds nothing more.
    'uploads.add': async (_user, event) => {
      const add = event as unknown as { files: QueuedFile[]; companyId: number | null }
      if (!canQueueNow(add) || inOrder(live.queue.getSnapshot().context, add)) live.queue.send(event as never)
    },
    'upload.changed': (user, event) => report(user, event as unknown as Report),
    'uploads.restored': async (_user, event) => {
      live.queue.send(event as never)
    },
    'uploads.resendAll': async (user) => {
      await press(user, screen.getByRole('button', { name: 'Send all again' }))
    },
    'upload.resend': async (user) => {
      await press(user, screen.getByRole('button', { name: `Send again: ${RESTORED.file.name}` }))
    },
    'network.online': async () => {
      live.queue.send({ type: 'network.online' })
    },
    'network.offline': async () => {
      live.queue.send({ type: 'network.offline' })
    },
    // A processed invoice's View button; nothing to press for another upload.
    'upload.view': async (user) => {
      const view = panel() && screen.queryByRole('button', { name: /^View / })
      if (view) await press(user, view)
    },
    'upload.notice': async (_user, event) => {
      live.queue.send(event as never)
    },
    'panel.toggle': async (user) => {
      const region = panel()
      // Nothing on screen toggles a panel that is not shown; the flag only matters once it shows.
      if (!region) live.queue.send({ type: 'panel.toggle' })
      else await press(user, within(region).getByRole('button', { name: /(Collapse|Expand)$/ }))
    },
    'uploads.clearCompleted': async (user) => {
      const region = panel()
      if (!region) return
      const before = live.queue.getSnapshot().context.uploads
      // Clearing removes success, error, cancelled and in_progress items; the others (pending, uploading) stay.
      const kept = before.filter((u) => !['success', 'error', 'cancelled', 'in_progress'].includes(u.status))
      await press(user, within(region).getByRole('button', { name: 'Clear completed' }))
      expect(live.queue.getSnapshot().context.uploads.map((u) => u.fileName)).toEqual(
        kept.map((u) => u.fileName),
      )
      if (kept.length < before.length) seen.add(`cleared completed, kept ${kept.length}`)
    },
    'uploads.clearAll': async (user) => {
      const region = panel()
      if (!region) return
      await press(user, within(region).getByRole('button', { name: 'Clear all' }))
      expect(live.queue.getSnapshot().context.uploads).toEqual([])
      await waitFor(() => expect(panel()).toBeNull())
      seen.add('cleared all')
    },
  },
  views: {
    uploads: expectPanel,
    'polling.idle': (s) => {
      // Nothing polled: nothing processing, or only the live company's uploads.
      expect(
        s.context.uploads.some(
          (u: QueueEntry) => u.status === 'processing' && u.companyId !== s.context.liveCompanyId,
        ),
      ).toBe(false)
      // A refused add queues nothing.
      expect(s.context.uploads.some((u: QueueEntry) => u.createdAt < 100)).toBe(false)
    },
    'polling.waiting': () => {
      if (panel() && live.queue.getSnapshot().context.panelOpen)
        expect(screen.getAllByRole('progressbar').some((b) => !b.hasAttribute('aria-valuenow'))).toBe(true)
    },
    'polling.checking': () => expect(live.controls.isPending('checkStatus')).toBe(true),
  },
})

it('showed, along those paths, every status in a row, both batches, the pulse dot and both clears', () => {
  const statuses = Object.keys(STATUS_LABEL).map((status) => `row ${status}`)
  for (const thing of [...statuses, '1 batch(es)', '2 batch(es)', 'collapsed', 'pulse dot', 'cleared all'])
    expect(seen, thing).toContain(thing)
  // Clear completed removed something while keeping the second batch's pending and uploading files.
  expect([...seen].some((s) => /^cleared completed, kept [1-9]/.test(s))).toBe(true)
})

it('reaches the panel toggle, both clears and each cancel from the keyboard, by name', async () => {
  const uploads = new Map<string, PendingUpload>()
  const queue = createActor(
    uploadQueueMachine.provide({
      actors: {
        uploadItem: uploadItemMachine.provide({
          actors: { upload: fakeUpload(uploads) },
          // The poll's clock must not also send a waiting upload again: only the browser's
          // `online` does here (the back-off is the item machine's own test).
          delays: { retryDelay: 24 * 60 * 60_000 },
        }),
      },
    }),
  ).start()
  render(panelFor(queue))
  queue.send({ type: 'uploads.add', files: firstBatch, companyId: COMPANY, at: FIRST_BATCH })
  queue.send({ type: 'uploads.add', files: secondBatch, companyId: COMPANY, at: SECOND_BATCH })
  const user = userEvent.setup()
  await screen.findByRole('region', { name: 'Uploads' })
  const button = (name: string) => screen.getByRole('button', { name })
  for (const name of [
    'Uploading 4 of 4 Collapse',
    'Clear completed',
    'Clear all',
    // Newest batch first; the pending scan-facture.png has nothing to cancel yet.
    'Cancel upload of ticket-taxi.pdf',
    'Cancel upload of contrat-bail.docx',
    'Cancel upload of releve-janvier.pdf',
  ]) {
    await user.tab()
    expect(document.activeElement).toBe(button(name))
  }
  // Enter on the focused cancel button cancels that upload only (the pending one takes its slot).
  await user.keyboard('{Enter}')
  await waitFor(() =>
    expect(queue.getSnapshot().context.uploads.map((u) => u.status)).toEqual([
      'cancelled',
      'uploading',
      'uploading',
      'uploading',
    ]),
  )
  // Space on the toggle collapses the panel.
  act(() => (document.activeElement as HTMLElement).blur())
  await user.tab()
  expect(document.activeElement).toBe(button('Uploading 3 of 4 Collapse'))
  await user.keyboard(' ')
  expect(queue.getSnapshot().context.panelOpen).toBe(false)
  expect(screen.queryAllByRole('listitem')).toEqual([])
  queue.stop()
})

it('labels the invoice and expense categories in the reader’s language; document categories are names', async () => {
  const po = readFileSync('locales/fr/common.po', 'utf8')
  const french = (source: string) => new RegExp(`msgid "${source}"\\nmsgstr "(.+)"`).exec(po)![1]!
  i18n.load('fr', {
    [generateMessageId('Invoices')]: french('Invoices'),
    [generateMessageId('Expenses')]: french('Expenses'),
  })
  i18n.activate('fr')
  try {
    const queue = createActor(
      uploadQueueMachine.provide({
        actors: { uploadItem: uploadItemMachine.provide({ actors: { upload: fakeUpload(new Map()) } }) },
      }),
    ).start()
    render(panelFor(queue))
    queue.send({
      type: 'uploads.add',
      files: [...firstBatch, ...secondBatch],
      companyId: COMPANY,
      at: FIRST_BATCH,
    })
    const rows = await screen.findAllByRole('listitem')
    const meta = (name: string) =>
      rows.find((r) => within(r).queryByTitle(name))!.querySelector('span + span + span')!.textContent
    expect(meta('releve-janvier.pdf')).toBe('Factures')
    expect(meta('ticket-taxi.pdf')).toBe('Notes de frais')
    expect(meta('contrat-bail.docx')).toBe('HR')
    queue.stop()
  } finally {
    i18n.activate('en')
  }
})

it('shows each receipt photo’s thumbnail under its PDF’s name, and revokes the picture when the row leaves the list', async () => {
  const made: string[] = []
  const revoked: string[] = []
  const { createObjectURL, revokeObjectURL } = URL
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    const url = `blob:thumbnail-${(blob as File).name}-${made.length}`
    made.push(url)
    return url
  }
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url)
  }
  try {
    const queue = createActor(
      uploadQueueMachine.provide({
        actors: {
          uploadItem: uploadItemMachine.provide({
            actors: {
              upload: fakeUpload(new Map()),
              // The conversion never ends here: the rows stay uploading.
              photoToPdf: fromPromise<File, { photo: File; name: string }>(() => new Promise(() => {})),
            },
          }),
        },
      }),
    ).start()
    render(panelFor(queue))
    const photo = (name: string): QueuedFile => ({
      file: new File(['jpeg'], name, { type: 'image/jpeg' }),
      documentType: 'expense',
      category: 'Expenses',
    })
    queue.send({
      type: 'uploads.add',
      files: [photo('IMG_0001.jpg'), photo('IMG_0002.jpg')],
      companyId: COMPANY,
      at: FIRST_BATCH,
    })
    const rows = await screen.findAllByRole('listitem')
    expect(rows.map((r) => r.querySelector('[title]')?.getAttribute('title'))).toEqual([
      'IMG_0001.pdf',
      'IMG_0002.pdf',
    ])
    await waitFor(() =>
      expect(rows.map((r) => r.querySelector('img[data-thumbnail]')?.getAttribute('src'))).toEqual([
        expect.stringMatching(/^blob:thumbnail-IMG_0001\.jpg/),
        expect.stringMatching(/^blob:thumbnail-IMG_0002\.jpg/),
      ]),
    )
    expect(revoked).toEqual([])
    act(() => queue.send({ type: 'uploads.clearAll' }))
    await waitFor(() => expect(screen.queryAllByRole('listitem')).toHaveLength(0))
    // Every picture made is given back (a re-render may have made and revoked one more).
    expect([...revoked].sort()).toEqual([...made].sort())
    queue.stop()
  } finally {
    URL.createObjectURL = createObjectURL
    URL.revokeObjectURL = revokeObjectURL
  }
})
