import { expect, it } from 'vitest'
import { type AnyEventObject, createActor, createMachine, fromPromise, SimulatedClock, waitFor } from 'xstate'
import {
  failureReason,
  isNetworkFailure,
  isReceiptPhoto,
  MAX_RETRY_DELAY_MS,
  retryDelay,
  type UploadReport,
  uploadFileName,
  uploadItemMachine,
} from '../../src/machines/uploads/upload-item.machine'
import { describeModel } from '../support/model'

/** The queue's stand-in: records every report of the item under test. */
let recordReport: (entry: string) => void = () => {}
const parent = createActor(
  createMachine({
    on: {
      '*': {
        actions: ({ event }: { event: AnyEventObject }) => {
          const r = event as UploadReport
          recordReport(`report:${r.status}${r.answered ? ':answered' : ''}`)
        },
      },
    },
  }),
).start()

const file = new File(['%PDF-1.4 test'], 'facture.pdf', { type: 'application/pdf' })
const input = {
  id: 'upload-1',
  key: 'key-1',
  file,
  documentType: 'invoice' as const,
  category: 'Invoices',
  createdAt: 0,
  parent,
}
/** A receipt photo queued as an expense: made into a PDF before it is sent. */
const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'IMG_1234.jpg', { type: 'image/jpeg' })
const photoInput = { ...input, file: photo, documentType: 'expense' as const, category: 'Expenses' }
const madePdf = new File(['%PDF-1.7 made'], 'IMG_1234.pdf', { type: 'application/pdf' })
const failure = (status: number, message: string) => Object.assign(new Error(message), { status })
/** What the upload call rejects with when no answer came (offline, connection reset). */
const networkFailure = new DOMException('Upload failed', 'NetworkError')
/** A file a reload found in the browser's storage, never sent. */
const unsentInput = { ...input, unsent: true }

describeModel('upload item machine', {
  machine: uploadItemMachine,
  inputs: [input, photoInput, unsentInput],
  actors: ['upload', 'photoToPdf'],
  provide: (machine, _controls, record) => {
    recordReport = record
    return machine.provide({
      actions: {
        notify: (_, p) =>
          record(
            `notify:${p.notice}:${p.fileName}${p.reason ? `:${p.reason.code}:${p.reason.message}` : ''}`,
          ),
      },
    })
  },
  events: {
    'upload.start': [
      { type: 'upload.start', companyId: 7 },
      { type: 'upload.start', companyId: null },
    ],
    'upload.progress': [{ type: 'upload.progress', progress: 42 }],
    'upload.status': [
      { type: 'upload.status', status: 'PROCESSING', errors: [] },
      { type: 'upload.status', status: 'COMPLETED', errors: [] },
      { type: 'upload.status', status: 'FAILED', errors: ['no_text'], messages: ['No text found'] },
      { type: 'upload.status', status: 'failed', errors: [] },
    ],
    'xstate.done.actor.upload': [
      { type: 'xstate.done.actor.upload', output: { id: 11, status: 'PROCESSING' } },
      { type: 'xstate.done.actor.upload', output: { id: 12, status: 'COMPLETED' } },
    ],
    'xstate.done.actor.photoToPdf': [{ type: 'xstate.done.actor.photoToPdf', output: madePdf }],
    'xstate.error.actor.photoToPdf': [
      { type: 'xstate.error.actor.photoToPdf', error: new Error('decode') },
      // The converter's code could not be fetched (offline): not the photo's fault.
      { type: 'xstate.error.actor.photoToPdf', error: networkFailure },
    ],
    'xstate.error.actor.upload': [
      { type: 'xstate.error.actor.upload', error: failure(415, 'Only PDF files are supported for expenses') },
      { type: 'xstate.error.actor.upload', error: networkFailure },
      { type: 'xstate.error.actor.upload', error: failure(503, 'Service Unavailable') },
    ],
    'network.online': [{ type: 'network.online' }],
    'network.offline': [{ type: 'network.offline' }],
  },
  contextKey: (c) => {
    const ctx = c as {
      progress: number
      documentId: number | null
      error: string | null
      companyId: unknown
      file: File
      attempts: number
    }
    return {
      // One broken attempt or several behave alike (only the back-off grows).
      retried: ctx.attempts > 0,
      progress: ctx.progress,
      documentId: ctx.documentId,
      error: ctx.error,
      companyId: ctx.companyId,
      file: ctx.file.name,
    }
  },
  states: {
    pending: (s, log) => {
      expect(s.context.progress).toBe(0)
      expect(s.context.companyId).toBeNull()
      // Queued now, or an unsent file sent again (the queue lists it as pending itself).
      expect(log.filter((l) => l !== 'report:unsent')).toEqual([])
    },
    unsent: (s, log) => {
      expect(log).toEqual(['report:unsent'])
      expect(s.can({ type: 'upload.cancel' })).toBe(true)
      expect(s.context.companyId).toBeNull()
    },
    waitingForNetwork: (s, log) => {
      expect(log.at(-1)).toBe('report:waiting')
      expect(s.context.attempts).toBeGreaterThan(0)
      expect(s.context.error).toBeNull()
      expect(s.hasTag('busy')).toBe(true)
      expect(s.can({ type: 'upload.cancel' })).toBe(true)
      // A photo whose converter could not be loaded is still the photo: it is made into a PDF first.
      if (s.context.photo) expect([photo, madePdf]).toContain(s.context.file)
    },
    converting: (s, log) => {
      // Reported as uploading: the queue counts it among the uploads sending, and it can be cancelled.
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.photo).toBe(photo)
      // Converting again after the network came back: nothing was sent in between.
      expect(s.context.file).toBe(photo)
      expect(s.context.documentId).toBeNull()
      expect(s.context.fileName).toBe('IMG_1234.pdf')
      expect(s.context.companyId).toBe(7)
      expect(log.at(-1)).toBe('report:uploading')
      expect(s.can({ type: 'upload.cancel' })).toBe(true)
    },
    'sending.uploading': (s, log) => {
      // What is sent is a PDF: the file queued, or the one made of the photo.
      expect(s.context.file).toBe(s.context.photo ? madePdf : file)
      expect(s.hasTag('busy')).toBe(true)
      expect(s.context.companyId).toBe(7)
      expect(log).toContain('report:uploading')
      expect(s.can({ type: 'upload.cancel' })).toBe(true)
    },
    'sending.in_progress': (s, log) => {
      expect(s.context.progress).toBe(100)
      expect(log.at(-1)).toBe('report:in_progress')
      expect(s.can({ type: 'upload.cancel' })).toBe(false)
    },
    processing: (s, log) => {
      expect(s.context.documentId).toBe(11)
      expect(log).toContain('report:processing:answered')
      expect(log.some((l) => l.startsWith('notify:'))).toBe(false)
    },
    success: (s, log) => {
      expect(s.status).toBe('done')
      expect(s.context.completedAt).not.toBeNull()
      if (s.context.documentId === 12) {
        expect(log.at(-1)).toBe('report:success:answered')
        expect(log.some((l) => l.startsWith('notify:'))).toBe(false)
      } else {
        expect(log.slice(-2).sort()).toEqual([`notify:processed:${s.context.fileName}`, 'report:success'])
      }
    },
    error: (s, log) => {
      expect(s.status).toBe('done')
      const { code, message } = s.context.error
      expect(log.slice(-2).sort()).toEqual([
        `notify:failed:${s.context.fileName}:${code}:${message}`,
        'report:error',
      ])
      // A photo that could not be made into a PDF stays in the list (with its thumbnail) and says why.
      if (code === 'photoNotConverted') expect(s.context.photo).toBe(photo)
      // The contract's failures carry their code; the server's own texts are shown as they came.
      expect([
        ['companyIdRequired', 'Company ID is required for this upload'],
        ['expenseNotPdf', 'Only PDF files are supported for expenses'],
        ['photoNotConverted', 'The photo could not be made into a PDF. Try another photo or a PDF.'],
        ['unexpected', 'No text found'],
        ['processingFailed', 'Processing failed'],
      ]).toContainEqual([code, message])
    },
    cancelled: (s, log) => {
      expect(s.status).toBe('done')
      expect(log.at(-1)).toBe('report:cancelled')
      expect(log.some((l) => l.startsWith('notify:'))).toBe(false)
    },
  },
})

it('joins the server’s failure texts, falls back to the codes, then to “Processing failed”', () => {
  expect(failureReason({ errors: ['a', 'b'], messages: ['A', 'B'] })).toBe('A, B')
  expect(failureReason({ errors: ['iban_checksum', 'totals_mismatch'] })).toBe(
    'iban_checksum, totals_mismatch',
  )
  expect(failureReason({ errors: [] })).toBe('Processing failed')
})

it('reports progress, aborts the call when cancelled, and sends the company it was started for', async () => {
  let seen: { companyId: number; signal: AbortSignal } | undefined
  const actor = createActor(
    uploadItemMachine.provide({
      actors: {
        upload: fromPromise(({ input, signal }) => {
          seen = { companyId: input.companyId, signal }
          input.item.send({ type: 'upload.progress', progress: 30 })
          return new Promise(() => {})
        }),
      },
    }),
    { input },
  ).start()
  actor.send({ type: 'upload.start', companyId: 3 })
  await waitFor(actor, (s) => s.context.progress === 30)
  expect(seen?.companyId).toBe(3)
  actor.send({ type: 'upload.cancel' })
  expect(actor.getSnapshot().value).toBe('cancelled')
  expect(seen?.signal.aborted).toBe(true)
})

it('names a receipt photo’s PDF after it, and sends other files as they are', () => {
  const named = (name: string, type: string, documentType: 'expense' | 'invoice' = 'expense') =>
    uploadFileName({ file: { name, type }, documentType })
  expect(named('IMG_1234.jpg', 'image/jpeg')).toBe('IMG_1234.pdf')
  expect(named('scan.final.PNG', '')).toBe('scan.final.pdf')
  expect(named('receipt.pdf', 'application/pdf')).toBe('receipt.pdf')
  expect(named('IMG_1234.jpg', 'image/jpeg', 'invoice')).toBe('IMG_1234.jpg')
  // Every iOS camera shot is image.jpg: each receipt is named after the time it was taken instead.
  const taken = new Date(2026, 11, 2, 9, 30, 15).getTime()
  expect(
    uploadFileName({
      file: { name: 'image.jpg', type: 'image/jpeg', lastModified: taken },
      documentType: 'expense',
    }),
  ).toBe('receipt-2026-12-02-093015.pdf')
  expect(named('image.jpg', 'image/jpeg')).toBe('receipt.pdf')
  expect(isReceiptPhoto({ file: { name: 'logo.gif', type: 'image/gif' }, documentType: 'expense' })).toBe(
    false,
  )
})

it('sends a file whose connection broke again, with the same key, after 1, 2, 4 … at most 30 s or once back online', async () => {
  const calls: string[] = []
  let failNext = 3
  const clock = new SimulatedClock()
  const actor = createActor(
    uploadItemMachine.provide({
      actors: {
        upload: fromPromise(async ({ input }) => {
          calls.push(input.key)
          if (failNext-- > 0) throw new DOMException('Upload failed', 'NetworkError')
          return { id: 21, status: 'PROCESSING' }
        }),
      },
    }),
    { input, clock },
  ).start()
  actor.send({ type: 'upload.start', companyId: 7 })
  await waitFor(actor, (s) => s.matches('waitingForNetwork'))
  expect(calls).toHaveLength(1)
  clock.increment(999)
  expect(actor.getSnapshot().matches('waitingForNetwork')).toBe(true)
  clock.increment(1)
  await waitFor(actor, (s) => s.matches('waitingForNetwork') && s.context.attempts === 2)
  clock.increment(1999)
  expect(calls).toHaveLength(2)
  // Back online: sent at once, without waiting for the rest of the back-off.
  actor.send({ type: 'network.online' })
  await waitFor(actor, (s) => s.matches('waitingForNetwork') && s.context.attempts === 3)
  actor.send({ type: 'network.online' })
  await waitFor(actor, (s) => s.matches('processing'))
  expect(calls).toEqual(['key-1', 'key-1', 'key-1', 'key-1'])
  expect(actor.getSnapshot().context.documentId).toBe(21)
})

it('grows the back-off to its ceiling, and tells network failures from the server’s refusals', () => {
  expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelay)).toEqual([
    1000,
    2000,
    4000,
    8000,
    16000,
    30000,
    30000,
    MAX_RETRY_DELAY_MS,
  ])
  expect(isNetworkFailure(new DOMException('x', 'NetworkError'))).toBe(true)
  expect(isNetworkFailure(failure(502, 'Bad Gateway'))).toBe(true)
  expect(isNetworkFailure(failure(500, 'Upload failed'))).toBe(false)
  expect(isNetworkFailure(failure(413, 'File too large'))).toBe(false)
  expect(isNetworkFailure(new DOMException('Upload cancelled', 'AbortError'))).toBe(false)
  expect(isNetworkFailure(undefined)).toBe(false)
})
