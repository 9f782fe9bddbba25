import { expect, it } from 'vitest'
import { createActor, createMachine, fromPromise, SimulatedClock, waitFor } from 'xstate'
import type { QueuedFile, UploadAnswer } from '../../contract'
import type { UploadCallInput } from '../../src/machines/uploads/upload-item.machine'
import {
  MAX_CONCURRENT_UPLOADS,
  POLL_INTERVAL_MS,
  type QueueEntry,
  type StatusAnswer,
  type StatusRequest,
  statusRequests,
  uploadQueueMachine,
} from '../../src/machines/uploads/upload-queue.machine'
import { describeModel } from '../support/model'

const pdf = (name: string) => new File(['%PDF-1.4'], name, { type: 'application/pdf' })
const invoice = (name: string): QueuedFile => ({
  file: pdf(name),
  documentType: 'invoice',
  category: 'Invoices',
})
const expense = (name: string): QueuedFile => ({
  file: pdf(name),
  documentType: 'expense',
  category: 'Expenses',
})
const add = (files: QueuedFile[], companyId: number | null, at = 0) => ({
  type: 'uploads.add',
  files,
  companyId,
  at,
})
const changed = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  type: 'upload.changed',
  id,
  status,
  documentId: null,
  error: null,
  completedAt: null,
  answered: false,
  ...extra,
})

type Ctx = { uploads: QueueEntry[]; panelOpen: boolean; unseen: boolean; liveCompanyId: number | null }
const has = (c: Ctx, ...statuses: string[]) => c.uploads.some((u) => statuses.includes(u.status))
/** Processing uploads the timer polls: those of a company without live updates. */
const polled = (c: Ctx) => c.uploads.some((u) => u.status === 'processing' && u.companyId !== c.liveCompanyId)

describeModel('upload queue machine', {
  machine: uploadQueueMachine,
  actors: ['checkStatus'],
  provide: (machine, _controls, record) =>
    machine.provide({
      // The children are the item machine's own tests; here they are silent stand-ins.
      actors: { uploadItem: createMachine({}) as never },
      actions: {
        notify: (_, p) =>
          record(`notify:${p.notice}${p.fileName ? `:${p.fileName}` : ''}${p.count ? `:${p.count}` : ''}`),
        announceSettled: () => record('uploads.settled'),
        logPollError: () => record('logPollError'),
        keepUnsent: (_, p) => record(`keep:${p.uploads.map((u) => u.file.name).join(',')}`),
        forgetUnsent: (_, p) => record(`forget:${p.keys.length}`),
      },
    }),
  events: {
    'uploads.add': [
      // Refused: stamped 99, so a queued entry from them would show.
      add([invoice('a.pdf')], null, 99),
      add([], 7, 99),
      add([invoice('a.pdf'), expense('b.pdf')], 7),
    ],
    'upload.changed': [
      changed('upload-1', 'processing', { documentId: 11, answered: true }),
      changed('upload-1', 'success', { documentId: 11, completedAt: 5 }),
      changed('upload-2', 'waiting'),
      changed('upload-2', 'error', {
        error: { code: 'uploadFailed', message: 'Upload failed' },
        completedAt: 5,
      }),
    ],
    'upload.cancel': [{ type: 'upload.cancel', id: 'upload-2' }],
    // A reload found a file never answered; it is listed after those queued (upload-1 alone, or 1–2).
    'uploads.restored': [
      {
        type: 'uploads.restored',
        uploads: [{ ...invoice('kept.pdf'), key: 'kept-key', companyId: 7, createdAt: 50 }],
      },
    ],
    'upload.resend': [{ type: 'upload.resend', id: 'upload-1' }],
    'network.online': [{ type: 'network.online' }],
    'network.offline': [{ type: 'network.offline' }],
    // The dashboard of company 7 (the uploads') or of another company goes live.
    'live.up': [
      { type: 'live.up', companyId: 7 },
      { type: 'live.up', companyId: 8 },
    ],
    'live.down': [{ type: 'live.down', companyId: 7 }],
    // Invoice 11 is upload-1's document; 12 is nobody's.
    'document.changed': [
      { type: 'document.changed', companyId: 7, documentId: 11 },
      { type: 'document.changed', companyId: 7, documentId: 12 },
    ],
    // upload-1 (invoice 11) once processed can be viewed; upload-2 never can.
    'upload.notice': [{ type: 'upload.notice', notice: 'failed', fileName: 'b.pdf' }],
    'upload.view': [
      { type: 'upload.view', id: 'upload-1' },
      { type: 'upload.view', id: 'upload-2' },
    ],
    'xstate.done.actor.checkStatus': [
      {
        type: 'xstate.done.actor.checkStatus',
        output: [
          { kind: 'invoice', companyId: 7, statuses: [{ id: 11, status: 'COMPLETED', errors: [] }] },
        ] satisfies StatusAnswer[],
      },
    ],
    'xstate.error.actor.checkStatus': [
      { type: 'xstate.error.actor.checkStatus', error: new Error('offline') },
    ],
  },
  // What guards and the view distinguish; two lists with the same traits behave alike.
  contextKey: (c) => {
    const ctx = c as Ctx
    return {
      empty: ctx.uploads.length === 0,
      processing: has(ctx, 'processing'),
      pending: has(ctx, 'pending'),
      ended: has(ctx, 'success', 'error'),
      unsent: has(ctx, 'unsent'),
      waiting: has(ctx, 'waiting'),
      open: ctx.panelOpen,
      unseen: ctx.unseen,
      live: ctx.liveCompanyId,
    }
  },
  limit: 8000,
  // The `unsent` actor finds the files a reload left once, as the queue starts; `network.online`
  // matters only to an upload waiting for the network, `upload.resend` only to an unsent one.
  allowed: (s, event) => {
    const c = s.context as Ctx
    if (event.type === 'uploads.restored') return c.uploads.length === 0
    if (event.type === 'network.online') return has(c, 'waiting')
    if (event.type === 'network.offline') return has(c, 'uploading', 'in_progress')
    if (event.type === 'upload.resend' || event.type === 'uploads.resendAll') return has(c, 'unsent')
    // Only an upload that was sending waits for the network.
    const e = event as { type: string; id?: string; status?: string }
    if (e.type === 'upload.changed' && e.status === 'waiting')
      return c.uploads.some((u) => u.id === e.id && u.status === 'uploading')
    return true
  },
  states: {
    uploads: (s, log) => {
      // Each file is kept once, when it is queued or found; a restored one is not kept again.
      const keys = s.context.uploads.map((u: QueueEntry) => u.key)
      expect(new Set(keys).size).toBe(keys.length)
      for (const u of s.context.uploads as QueueEntry[])
        if (u.key === 'kept-key') expect(u.fileName).toBe('kept.pdf')
      // An item's toast is left out while the open panel shows the same.
      if (log.at(-1) === 'notify:failed:b.pdf') expect(s.context.panelOpen).toBe(false)
      for (const u of s.context.uploads as QueueEntry[]) expect(u.ref.id).toBe(u.id)
      expect(new Set(s.context.uploads.map((u: QueueEntry) => u.id)).size).toBe(s.context.uploads.length)
    },
    'polling.idle': (s, log) => {
      expect(polled(s.context)).toBe(false)
      expect(s.hasTag('polling')).toBe(false)
      // A refusal queues nothing: the list is the one before it.
      if (log.at(-1) === 'notify:noFiles' || log.at(-1) === 'notify:selectCompanyFirst')
        expect(s.context.uploads.some((u: QueueEntry) => u.createdAt === 99)).toBe(false)
      // The panel opens on new files and says it: no "started" toast.
      expect(log.some((l) => l.startsWith('notify:started'))).toBe(false)
      const sending = s.context.uploads.filter((u: QueueEntry) =>
        ['uploading', 'in_progress', 'waiting'].includes(u.status),
      )
      expect(sending.length).toBeLessThanOrEqual(MAX_CONCURRENT_UPLOADS)
      if (has(s.context, 'pending')) expect(sending).toHaveLength(MAX_CONCURRENT_UPLOADS)
      if (s.context.unseen) expect(s.context.panelOpen).toBe(false)
    },
    'polling.waiting': (s) => {
      expect(polled(s.context)).toBe(true)
      expect(s.hasTag('polling')).toBe(false)
    },
    'polling.checking': (s) => {
      expect(s.hasTag('polling')).toBe(true)
      // Only upload-1 (invoice 11) is ever processing here; it may have ended since the check began.
      expect([[], [{ kind: 'invoice', companyId: 7, documentIds: [11] }]]).toContainEqual(
        statusRequests(s.context.uploads),
      )
    },
  },
})

it('asks one status request per kind every 3 s while anything processes, and none when idle', async () => {
  const clock = new SimulatedClock()
  const requests: string[] = []
  const answers: 'PROCESSING' | 'COMPLETED' = 'PROCESSING'
  let nextDocument = 100
  const notices: string[] = []
  const refreshed: string[] = []
  const queue = createActor(
    uploadQueueMachine.provide({
      actors: {
        checkStatus: fromPromise<
          StatusAnswer[],
          {
            requests: { kind: 'invoice' | 'expense' | 'document'; companyId: number; documentIds: number[] }[]
          }
        >(async ({ input }) =>
          input.requests.map((r) => {
            requests.push(`${r.kind}:${r.documentIds.length}`)
            return {
              kind: r.kind,
              companyId: r.companyId,
              statuses: r.documentIds.map((id) => ({ id, status: answers, errors: [] })),
            }
          }),
        ),
        uploadItem: createMachine({}) as never,
      },
      actions: {
        notify: (_, p) => notices.push(p.notice),
      },
    }),
    { clock },
  ).start()
  queue.on('uploads.settled', () => refreshed.push('refresh'))
  // Idle for a minute: no request.
  for (let t = 0; t < 60_000; t += POLL_INTERVAL_MS) clock.increment(POLL_INTERVAL_MS)
  expect(requests).toEqual([])

  // 50 items processing (25 invoices, 25 expenses), reported by their (stand-in) children.
  const files = Array.from({ length: 50 }, (_, i) => (i % 2 ? expense(`e${i}.pdf`) : invoice(`i${i}.pdf`)))
  queue.send({ type: 'uploads.add', files, companyId: 7, at: 0 })
  for (const u of queue.getSnapshot().context.uploads)
    queue.send({
      type: 'upload.changed',
      id: u.id,
      status: 'processing',
      documentId: nextDocument++,
      error: null,
      completedAt: null,
      answered: true,
    })
  expect(queue.getSnapshot().matches({ polling: 'waiting' })).toBe(true)
  for (let t = 0; t < 60_000; t += POLL_INTERVAL_MS) {
    clock.increment(POLL_INTERVAL_MS)
    await waitFor(queue, (s) => s.matches({ polling: 'waiting' }))
  }
  expect(requests).toHaveLength(40)
  expect(new Set(requests)).toEqual(new Set(['invoice:25', 'expense:25']))
  // Fewer than 5 in the list is when the "sent" toast shows: 50 answers, no toast.
  // The panel opens on the new files: no toast says it again.
  expect(notices).toEqual([])
  expect(refreshed).toEqual([])
})

it('starts at most three uploads at once and the next when one is answered; polls and ends them', async () => {
  const clock = new SimulatedClock()
  const started: string[] = []
  const settle = new Map<string, (answer: UploadAnswer) => void>()
  const notices: string[] = []
  const refreshed: string[] = []
  const bulk: string[] = []
  const { uploadItemMachine } = await import('../../src/machines/uploads/upload-item.machine')
  const item = uploadItemMachine.provide({
    actors: {
      upload: fromPromise<UploadAnswer, UploadCallInput>(
        ({ input }) =>
          new Promise((resolve) => {
            started.push(input.file.name)
            settle.set(input.file.name, resolve)
          }),
      ),
    },
    actions: {
      notify: (_, p) => notices.push(`${p.notice}:${p.fileName}${p.reason ? `:${p.reason.message}` : ''}`),
    },
  })
  const queue = createActor(
    uploadQueueMachine.provide({
      actors: {
        uploadItem: item,
        checkStatus: fromPromise<
          StatusAnswer[],
          {
            requests: { kind: 'invoice' | 'expense' | 'document'; companyId: number; documentIds: number[] }[]
          }
        >(async ({ input }) =>
          input.requests.map((r) => {
            bulk.push(`${r.kind}:${r.documentIds.join(',')}`)
            return {
              kind: r.kind,
              companyId: r.companyId,
              statuses: r.documentIds.map((id) =>
                id === 1
                  ? { id, status: 'COMPLETED', errors: [] }
                  : { id, status: 'FAILED', errors: ['no_text'], messages: ['No text found'] },
              ),
            }
          }),
        ),
      },
      actions: {
        notify: (_, p) => notices.push(`${p.notice}:${p.fileName ?? p.count}`),
      },
    }),
    { clock },
  ).start()
  queue.on('uploads.settled', () => refreshed.push('refresh'))
  const accepted: (number | null)[] = []
  queue.on('uploads.accepted', (e) => void accepted.push(e.documentId))
  queue.send({
    type: 'uploads.add',
    files: ['1', '2', '3', '4'].map((n) => invoice(`${n}.pdf`)),
    companyId: 7,
    at: 0,
  })
  const statuses = () => queue.getSnapshot().context.uploads.map((u) => u.status)
  await waitFor(queue, () => started.length === 3)
  expect(statuses()).toEqual(['uploading', 'uploading', 'uploading', 'pending'])
  // The panel opens on the new files: no toast says it again; collapsed, its events are toasts.
  expect(notices).toEqual([])
  queue.send({ type: 'panel.toggle' })

  settle.get('1.pdf')!({ id: 1, status: 'PROCESSING' })
  await waitFor(queue, () => started.length === 4)
  expect(statuses()).toEqual(['processing', 'uploading', 'uploading', 'uploading'])
  expect(notices).toEqual(['sent:1.pdf'])
  // The server took 1.pdf: its document is announced before it is processed.
  expect(accepted).toEqual([1])
  expect(refreshed).toEqual([])
  settle.get('2.pdf')!({ id: 2, status: 'PROCESSING' })
  await waitFor(queue, () => statuses()[1] === 'processing')

  clock.increment(POLL_INTERVAL_MS)
  await waitFor(queue, () => statuses()[0] === 'success' && statuses()[1] === 'error')
  expect(bulk).toEqual(['invoice:1,2'])
  expect(notices).toContain('processed:1.pdf')
  expect(notices).toContain('failed:2.pdf:No text found')
  expect(refreshed).toEqual(['refresh', 'refresh'])
  expect(queue.getSnapshot().matches({ polling: 'idle' })).toBe(true)

  // Cancel one still uploading; clear completed keeps what is still uploading.
  queue.send({ type: 'upload.cancel', id: 'upload-3' })
  await waitFor(queue, () => statuses()[2] === 'cancelled')
  queue.send({ type: 'uploads.clearCompleted' })
  expect(statuses()).toEqual(['uploading'])
  queue.send({ type: 'uploads.clearAll' })
  expect(statuses()).toEqual([])
})

it('asks the dashboard to show a processed invoice or expense, and nothing else', () => {
  const queue = createActor(
    uploadQueueMachine.provide({ actors: { uploadItem: createMachine({}) as never } }),
  ).start()
  const viewed: unknown[] = []
  queue.on('uploads.view', (event) => viewed.push(event))
  queue.send(add([invoice('a.pdf'), expense('b.pdf')], 7) as never)
  queue.send({ type: 'upload.view', id: 'upload-1' })
  queue.send(changed('upload-1', 'processing', { documentId: 11, answered: true }) as never)
  queue.send({ type: 'upload.view', id: 'upload-1' })
  expect(viewed).toEqual([])
  queue.send(changed('upload-1', 'success', { documentId: 11, completedAt: 5 }) as never)
  queue.send(changed('upload-2', 'success', { documentId: 12, completedAt: 5 }) as never)
  queue.send({ type: 'upload.view', id: 'upload-1' })
  queue.send({ type: 'upload.view', id: 'upload-2' })
  expect(viewed).toEqual([
    { type: 'uploads.view', companyId: 7, kind: 'invoice', id: 11 },
    { type: 'uploads.view', companyId: 7, kind: 'expense', id: 12 },
  ])
  queue.stop()
})

it('polls a company’s uploads only while its live updates are down, and asks at once when one is accepted or its document changes', async () => {
  const clock = new SimulatedClock()
  const asked: number[] = []
  const status = 'PROCESSING'
  const queue = createActor(
    uploadQueueMachine.provide({
      actors: {
        checkStatus: fromPromise<StatusAnswer[], { requests: StatusRequest[] }>(async ({ input }) =>
          input.requests.map((r) => {
            asked.push(clock.now())
            return {
              kind: 'invoice' as const,
              companyId: r.companyId,
              statuses: r.documentIds.map((id) => ({ id, status, errors: [] })),
            }
          }),
        ),
        uploadItem: createMachine({}) as never,
      },
    }),
    { clock },
  ).start()
  queue.send({ type: 'live.up', companyId: 7 })
  queue.send({ type: 'uploads.add', files: [invoice('a.pdf')], companyId: 7, at: 0 })
  queue.send(changed('upload-1', 'processing', { documentId: 11, answered: true }) as never)
  // Accepted while live: asked once at once (its document may have changed before the answer
  // came, the event then about a document the queue did not know), then no timer poll for a minute.
  await waitFor(queue, (s) => s.matches({ polling: 'idle' }))
  expect(asked).toEqual([0])
  for (let t = 0; t < 60_000; t += POLL_INTERVAL_MS) clock.increment(POLL_INTERVAL_MS)
  await waitFor(queue, (s) => s.matches({ polling: 'idle' }))
  expect(asked).toHaveLength(1)
  // Another document of the company changes: nothing; this upload's does: asked at once.
  queue.send({ type: 'document.changed', companyId: 7, documentId: 99 })
  expect(asked).toHaveLength(1)
  queue.send({ type: 'document.changed', companyId: 7, documentId: 11 })
  await waitFor(queue, (s) => s.matches({ polling: 'idle' }))
  expect(asked).toHaveLength(2)
  // The stream goes down: polling every 3 s again.
  queue.send({ type: 'live.down', companyId: 7 })
  expect(queue.getSnapshot().matches({ polling: 'waiting' })).toBe(true)
  clock.increment(POLL_INTERVAL_MS)
  await waitFor(queue, (s) => s.matches({ polling: 'waiting' }))
  expect(asked).toHaveLength(3)
  // Back up with the upload still processing: one catch-up request, then none.
  queue.send({ type: 'live.up', companyId: 7 })
  await waitFor(queue, (s) => s.matches({ polling: 'idle' }))
  expect(asked).toHaveLength(4)
  clock.increment(POLL_INTERVAL_MS * 5)
  expect(asked).toHaveLength(4)
  // Another company's live updates do not stop this company's polling.
  queue.send({ type: 'live.up', companyId: 8 })
  await waitFor(queue, (s) => s.matches({ polling: 'waiting' }))
  clock.increment(POLL_INTERVAL_MS)
  await waitFor(queue, (s) => s.matches({ polling: 'waiting' }))
  expect(asked).toHaveLength(6)
  queue.stop()
})

it('queues photos of receipts as expenses of their own, named after them, each made into a PDF before it is sent (a failed one stays with its reason)', async () => {
  const sent: string[] = []
  const { uploadItemMachine } = await import('../../src/machines/uploads/upload-item.machine')
  const item = uploadItemMachine.provide({
    actors: {
      photoToPdf: fromPromise<File, { photo: File; name: string }>(async ({ input }) => {
        if (input.photo.name === 'blurred.jpg') throw new Error('decode')
        return new File(['%PDF-1.7 made of the photo'], input.name, { type: 'application/pdf' })
      }),
      upload: fromPromise<UploadAnswer, UploadCallInput>(async ({ input }) => {
        sent.push(`${input.documentType}:${input.file.name}:${input.file.type}`)
        return { id: sent.length, status: 'PROCESSING' }
      }),
    },
  })
  const queue = createActor(uploadQueueMachine.provide({ actors: { uploadItem: item } })).start()
  const photo = (name: string, type: string): QueuedFile => ({
    file: new File([new Uint8Array([0xff, 0xd8])], name, { type }),
    documentType: 'expense',
    category: 'Expenses',
  })
  queue.send(
    add(
      [photo('IMG_1.jpg', 'image/jpeg'), photo('IMG_2.png', 'image/png'), photo('blurred.jpg', 'image/jpeg')],
      7,
    ) as never,
  )
  const entries = () => queue.getSnapshot().context.uploads
  expect(entries().map((u) => u.fileName)).toEqual(['IMG_1.pdf', 'IMG_2.pdf', 'blurred.pdf'])
  await waitFor(queue, () => entries().every((u) => ['processing', 'error'].includes(u.status)))
  expect(sent).toEqual(['expense:IMG_1.pdf:application/pdf', 'expense:IMG_2.pdf:application/pdf'])
  // The rows give the size of what was sent, the PDF's.
  expect(entries().map((u) => u.fileSize)).toEqual([26, 26, 2])
  const failed = entries()[2]!
  expect(failed.status).toBe('error')
  expect(failed.error?.code).toBe('photoNotConverted')
  // The photo itself is still there, for the row's thumbnail.
  expect(failed.ref.getSnapshot().context.photo?.name).toBe('blurred.jpg')
  queue.stop()
})

it('keeps each file until the server answered for it, waits for the network without losing a slot, and offers again what a reload left unsent', async () => {
  const clock = new SimulatedClock()
  const kept: string[] = []
  const forgotten: string[] = []
  const calls: { name: string; key: string }[] = []
  const outcome = new Map<string, (answer: UploadAnswer | Error) => void>()
  const { uploadItemMachine } = await import('../../src/machines/uploads/upload-item.machine')
  const item = uploadItemMachine.provide({
    actors: {
      upload: fromPromise<UploadAnswer, UploadCallInput>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            calls.push({ name: input.file.name, key: input.key })
            outcome.set(input.file.name, (a) => (a instanceof Error ? reject(a) : resolve(a)))
          }),
      ),
    },
  })
  const queue = createActor(
    uploadQueueMachine.provide({
      actors: { uploadItem: item },
      actions: {
        keepUnsent: (_, p) => kept.push(...p.uploads.map((u) => `${u.file.name}:${u.key}:${u.companyId}`)),
        forgetUnsent: (_, p) => forgotten.push(...p.keys),
      },
    }),
    { clock },
  ).start()
  const statuses = () => queue.getSnapshot().context.uploads.map((u) => `${u.fileName}:${u.status}`)
  const keyOf = (name: string) => queue.getSnapshot().context.uploads.find((u) => u.fileName === name)!.key

  // Found after a reload: listed as unsent, nothing sent until asked, not kept a second time.
  queue.send({
    type: 'uploads.restored',
    uploads: [{ ...invoice('kept.pdf'), key: 'kept-key', companyId: 7, createdAt: 1 }],
  })
  expect(statuses()).toEqual(['kept.pdf:unsent'])
  expect(queue.getSnapshot().context.panelOpen).toBe(true)
  queue.send({
    type: 'uploads.add',
    files: ['a', 'b', 'c'].map((n) => invoice(`${n}.pdf`)),
    companyId: 7,
    at: 2,
  })
  await waitFor(queue, () => calls.length === 3)
  expect(kept).toEqual(['a', 'b', 'c'].map((n) => `${n}.pdf:${keyOf(`${n}.pdf`)}:7`))
  expect(new Set(['a', 'b', 'c', 'kept'].map((n) => keyOf(`${n}.pdf`))).size).toBe(4)

  // a.pdf's connection breaks: it waits for the network and keeps its slot (kept.pdf, sent again,
  // waits for a slot too), then goes again under the same key when the browser is back online.
  outcome.get('a.pdf')!(new DOMException('Upload failed', 'NetworkError') as unknown as Error)
  await waitFor(queue, () => statuses()[1] === 'a.pdf:waiting')
  queue.send({ type: 'upload.resend', id: 'upload-1' })
  expect(statuses()).toEqual(['kept.pdf:pending', 'a.pdf:waiting', 'b.pdf:uploading', 'c.pdf:uploading'])
  expect(forgotten).toEqual([])
  queue.send({ type: 'network.online' })
  await waitFor(queue, () => calls.length === 4)
  expect(calls[3]).toEqual({ name: 'a.pdf', key: calls[0]!.key })

  // Answered (processing) or refused: the file leaves the storage, and the next one starts.
  outcome.get('a.pdf')!({ id: 1, status: 'PROCESSING' })
  await waitFor(queue, () => calls.length === 5)
  expect(calls[4]).toEqual({ name: 'kept.pdf', key: 'kept-key' })
  outcome.get('b.pdf')!(Object.assign(new Error('File too large'), { status: 413 }))
  await waitFor(queue, () => forgotten.length === 2)
  expect(forgotten).toEqual([keyOf('a.pdf'), keyOf('b.pdf')])

  // Clearing the list (or signing out) drops what is still kept.
  const stillKept = [keyOf('c.pdf'), 'kept-key'].sort()
  queue.send({ type: 'uploads.clearAll' })
  expect(forgotten.slice(2).sort()).toEqual(stillKept)
})

/** A started queue whose items are the real upload item, with `upload` as their call. */
async function queueWithItems(upload: (input: UploadCallInput) => Promise<UploadAnswer>) {
  const { uploadItemMachine } = await import('../../src/machines/uploads/upload-item.machine')
  return createActor(
    uploadQueueMachine.provide({
      actors: {
        uploadItem: uploadItemMachine.provide({
          actors: { upload: fromPromise<UploadAnswer, UploadCallInput>(({ input }) => upload(input)) },
        }),
      },
    }),
  ).start()
}

it('sends an unsent file again at once when a slot is free, under the key it was kept with', async () => {
  const calls: string[] = []
  const queue = await queueWithItems(async (input) => {
    calls.push(`${input.file.name}:${input.key}:${input.companyId}`)
    return { id: 5, status: 'PROCESSING' }
  })
  queue.send({
    type: 'uploads.restored',
    uploads: [{ ...expense('taxi.pdf'), key: 'kept-key', companyId: 9, createdAt: 1 }],
  })
  expect(calls).toEqual([])
  queue.send({ type: 'upload.resend', id: 'upload-1' })
  await waitFor(queue, (s) => s.context.uploads[0]?.status === 'processing')
  expect(calls).toEqual(['taxi.pdf:kept-key:9'])
})

it('sends every unsent file again with one event, three at a time, in the order listed', async () => {
  const calls: string[] = []
  const answers: ((a: UploadAnswer) => void)[] = []
  const queue = await queueWithItems((input) => {
    calls.push(`${input.file.name}:${input.key}`)
    return new Promise((resolve) => answers.push(resolve))
  })
  const names = ['a', 'b', 'c', 'd'].map((n) => `${n}.pdf`)
  queue.send({
    type: 'uploads.restored',
    uploads: names.map((n, i) => ({ ...expense(n), key: `key-${n}`, companyId: 9, createdAt: i })),
  })
  const statuses = () => queue.getSnapshot().context.uploads.map((u) => `${u.fileName}:${u.status}`)
  expect(statuses()).toEqual(names.map((n) => `${n}:unsent`))
  queue.send({ type: 'uploads.resendAll' })
  await waitFor(queue, () => calls.length === 3)
  expect(calls).toEqual(['a.pdf:key-a.pdf', 'b.pdf:key-b.pdf', 'c.pdf:key-c.pdf'])
  expect(statuses().at(-1)).toBe('d.pdf:pending')
  // Nothing unsent is left: pressing again does nothing.
  expect(queue.getSnapshot().can({ type: 'uploads.resendAll' })).toBe(false)
  answers[0]!({ id: 1, status: 'PROCESSING' })
  await waitFor(queue, () => calls.length === 4)
  expect(calls[3]).toBe('d.pdf:key-d.pdf')
})
