import { describe, expect, it } from 'vitest'
import { assign, createActor, fromPromise } from 'xstate'
import type { FinancialKind } from '../../contract'
import {
  type DocumentDetailContext,
  documentDetailMachine,
  EXPENSE_PDF_ONLY,
  INVOICE_PDF_ONLY,
  isFailedStatus,
} from '../../src/machines/details/document-detail.machine'
import { describeModel } from '../support/model'
import {
  completedRecord,
  detailEvents,
  detailKey,
  failedRecord,
  jpeg,
  lastSaved,
  newPdf,
  PDF_FAILURE,
  pdfBlob,
  pngBlob,
  xmlBlob,
} from './document-detail-fixtures'

const PREVIEW_URL = 'blob:preview-1'

const provideFakes = (machine: typeof documentDetailMachine, record: (entry: string) => void) =>
  machine.provide({
    actions: {
      notify: (_, p) => record(`notify:${p.notice}${p.category ? `:${p.category}` : ''}`),
      queueUpload: (_, p) =>
        record(`queue:${p.file.documentType}:${p.file.category}:${p.file.file.name}:${p.companyId}`),
      createPreviewUrl: assign(() => {
        record('preview:create')
        return { previewUrl: PREVIEW_URL }
      }),
      revokePreviewUrl: (_, p) => record(`revoke:${p.url}`),
      announceSaved: (_, p) => record(`saved:${p.status}`),
      close: () => record('close'),
    },
  })

const ctx = (s: { context: unknown }) => s.context as DocumentDetailContext

function detailModel(kind: FinancialKind, originals: Blob[]) {
  const other = kind === 'invoice' ? 'expense' : 'invoice'
  describeModel(`document detail machine (${kind})`, {
    machine: documentDetailMachine,
    input: { kind, id: 7, companyId: 3 },
    actors: ['loadDocument', 'loadOriginal', 'loadQuality', 'deleteDocument', 'reprocessDocument'],
    provide: (machine, _controls, record) => provideFakes(machine, record),
    events: detailEvents(originals),
    contextKey: detailKey,
    limit: 1000,
    states: {
      loading: (s, log) => {
        expect(s.hasTag('busy')).toBe(true)
        expect(ctx(s).document).toBeNull()
        expect(log).toEqual([])
      },
      failed: (s, log) => {
        expect(ctx(s).loadError).toBe('Document not found')
        expect(log).toEqual(['notify:loadFailed'])
      },
      'attachments.preview.loading': (s) => {
        expect(ctx(s).document).not.toBeNull()
        expect(ctx(s).original).toBeNull()
      },
      'attachments.preview.shown': (s, log) => {
        expect(ctx(s).previewUrl).toBe(PREVIEW_URL)
        expect(log).toContain('preview:create')
      },
      'attachments.preview.failed': (s, log) => {
        expect(ctx(s).previewError).toBe(PDF_FAILURE)
        expect(ctx(s).previewUrl).toBeNull()
        expect(log).toContain('notify:previewFailed')
      },
      'attachments.quality.loading': (s, log) => {
        expect(ctx(s).quality).toBeNull()
        expect(lastSaved(log)).toBeNull()
      },
      'attachments.quality.loaded': (s, log) =>
        // The findings of the last saved correction (none when it completed), else the loaded ones.
        expect(ctx(s).quality?.errors).toHaveLength(lastSaved(log) === 'COMPLETED' ? 0 : 1),
      'attachments.quality.failed': (s, log) => {
        expect(ctx(s).quality === null).toBe(lastSaved(log) === null)
        expect(log).toContain('notify:qualityFailed')
      },
      'ready.idle': (s, log) => {
        const c = ctx(s)
        expect(s.hasTag('busy')).toBe(false)
        expect(c.previewUrl).toBe(c.original ? PREVIEW_URL : null)
        if (c.fileError)
          expect([kind === 'invoice' ? INVOICE_PDF_ONLY : EXPENSE_PDF_ONLY, EXPENSE_PDF_ONLY]).toContain(
            c.fileError,
          )
        const last = log.at(-1) ?? ''
        // The status is the last saved correction's, else the loaded record's.
        const saved = lastSaved(log)
        if (saved) expect(c.document!.status).toBe(saved)
        // Actions are offered by status: resubmit and the store only for failed documents.
        const sinceSaved = log.slice(log.findLastIndex((e) => e.startsWith('saved:')) + 1)
        if (!isFailedStatus(c.document!.status)) {
          expect(s.can({ type: 'store.upload' })).toBe(false)
          expect(
            sinceSaved.some((e) => e.startsWith('queue:document') || e.startsWith(`queue:${kind}`)),
          ).toBe(false)
        } else expect(s.can({ type: 'store.upload' })).toBe(true)
        if (last === 'notify:missingReuploadData' || last === 'notify:missingStoreData')
          expect(c.original).toBeNull()
      },
      'ready.working': (s, log) => {
        const c = ctx(s)
        expect(s.hasTag('busy')).toBe(true)
        expect(s.can({ type: 'dialog.close' })).toBe(false)
        const expected = {
          resubmit: `queue:${kind}:${kind === 'invoice' ? 'Invoices' : 'Expenses'}:corrected.pdf:3`,
          reupload: `queue:${other}:${other === 'invoice' ? 'Invoices' : 'Expenses'}:facture-juillet.pdf:3`,
          store: `queue:document:${c.category}:facture-juillet.pdf:3`,
        }[c.action!.type]
        const queued = log.findLastIndex((e) => e.startsWith('queue:'))
        expect(log[queued]).toBe(expected)
        // Resubmit and the store start from a failed document (a correction saved since may have changed it).
        const savedSince = log.slice(queued).some((e) => e.startsWith('saved:'))
        if (c.action!.type !== 'reupload' && !savedSince)
          expect(isFailedStatus(c.document!.status)).toBe(true)
      },
      'ready.confirmingReprocess': (s, log) => {
        // Only a document a user confirmed or corrected asks first; nothing is sent yet.
        expect(ctx(s).document?.reviewed_at).toBeTruthy()
        expect(log).toContain(`saved:${ctx(s).document!.status}`)
        expect(s.hasTag('busy')).toBe(false)
        expect(s.can({ type: 'reprocess.confirm' })).toBe(true)
        expect(s.can({ type: 'reprocess.cancel' })).toBe(true)
      },
      'ready.reprocessing': (s, log) => {
        expect(s.hasTag('busy')).toBe(true)
        expect(s.can({ type: 'dialog.close' })).toBe(false)
        expect(ctx(s).action).toBeNull()
        expect(log.at(-1)?.startsWith('queue:') ?? false).toBe(false)
      },
      closed: (s, log) => {
        expect(s.status).toBe('done')
        expect(log.slice(-2)).toEqual([`revoke:${ctx(s).previewUrl}`, 'close'])
        const action = ctx(s).action
        if (action && log.some((e) => e.startsWith('queue:'))) {
          const notice = { resubmit: 'resubmitted', reupload: 'reuploaded', store: 'stored' }[action.type]
          const category = action.type === 'store' ? `:${action.file.category}` : ''
          expect(log.at(-3)).toBe(`notify:${notice}${category}`)
        }
      },
    },
  })
}

// An image original only exists for invoices (expenses are PDF only): the invoice graph has every
// transition; the expense's own outcomes are checked below.
detailModel('invoice', [pdfBlob, pngBlob, xmlBlob])

describe('document detail machine, beyond the graph', () => {
  const run = (kind: FinancialKind, overrides: Record<string, () => Promise<unknown>>) => {
    const log: string[] = []
    const never = () => new Promise<never>(() => {})
    const actors = Object.fromEntries(
      ['loadDocument', 'loadOriginal', 'loadQuality', 'deleteDocument', 'reprocessDocument'].map((name) => [
        name,
        fromPromise(overrides[name] ?? never),
      ]),
    )
    const actor = createActor(
      provideFakes(documentDetailMachine, (e) => log.push(e)).provide({ actors } as never),
      { input: { kind, id: 7, companyId: 3 } },
    )
    actor.start()
    return { actor, log }
  }

  it('keeps the server message of a failed load, or none for the fallback', async () => {
    const { actor } = run('expense', { loadDocument: () => Promise.reject(new Error('Not yours')) })
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches('failed') && resolve()))
    expect(actor.getSnapshot().context.loadError).toBe('Not yours')
    const silent = run('expense', { loadDocument: () => Promise.reject({}) })
    await new Promise<void>((resolve) => silent.actor.subscribe((s) => s.matches('failed') && resolve()))
    expect(silent.actor.getSnapshot().context.loadError).toBe('')
  })

  it('uploads to the store under the chosen category', async () => {
    const { actor, log } = run('invoice', {
      loadDocument: async () => failedRecord,
      loadOriginal: async () => pdfBlob,
      loadQuality: async () => ({ errors: [], warnings: [] }),
    })
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches({ ready: 'idle' }) && resolve()))
    actor.send({ type: 'category.select', category: 'RH' })
    actor.send({ type: 'store.upload' })
    expect(log.at(-1)).toBe('queue:document:RH:facture-juillet.pdf:3')
  })

  it('queues an expense resubmitted with a photo as an expense (the queue makes it a PDF), and refuses other files', async () => {
    const { actor, log } = run('expense', {
      loadDocument: async () => failedRecord,
      loadOriginal: async () => pdfBlob,
      loadQuality: async () => ({ errors: [], warnings: [] }),
      deleteDocument: async () => undefined,
    })
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches({ ready: 'idle' }) && resolve()))
    actor.send({ type: 'resubmit.select', file: new File(['text'], 'notes.txt', { type: 'text/plain' }) })
    expect(actor.getSnapshot().context.fileError).toBe(EXPENSE_PDF_ONLY)
    actor.send({ type: 'resubmit.select', file: jpeg })
    await new Promise<void>((resolve) => actor.subscribe((s) => s.status === 'done' && resolve()))
    expect(log).toContain('queue:expense:Expenses:photo.jpg:3')
    expect(log.at(-3)).toBe('notify:resubmitted')
  })

  it('reuploads a photo invoice as an expense (made a PDF on the way), not an XML e-invoice', async () => {
    const reupload = async (original: Blob) => {
      const { actor, log } = run('invoice', {
        loadDocument: async () => completedRecord,
        loadOriginal: async () => original,
        loadQuality: async () => ({ errors: [], warnings: [] }),
        deleteDocument: async () => undefined,
      })
      await new Promise<void>((resolve) => actor.subscribe((s) => s.matches({ ready: 'idle' }) && resolve()))
      actor.send({ type: 'reupload.start' })
      return { actor, log }
    }
    const photo = await reupload(pngBlob)
    expect(photo.log).toContain('queue:expense:Expenses:facture-juillet.pdf:3')
    const xml = await reupload(xmlBlob)
    expect(xml.actor.getSnapshot().context.fileError).toBe(EXPENSE_PDF_ONLY)
    expect(xml.log.some((e) => e.startsWith('queue:'))).toBe(false)
  })

  it('queues an expense resubmit as an expense and its reupload as an invoice', async () => {
    const ready = () =>
      run('expense', {
        loadDocument: async () => failedRecord,
        loadOriginal: async () => pdfBlob,
        loadQuality: async () => ({ errors: [], warnings: [] }),
        deleteDocument: async () => undefined,
      })
    const first = ready()
    await new Promise<void>((resolve) =>
      first.actor.subscribe((s) => s.matches({ ready: 'idle' }) && resolve()),
    )
    first.actor.send({ type: 'resubmit.select', file: newPdf })
    await new Promise<void>((resolve) => first.actor.subscribe((s) => s.status === 'done' && resolve()))
    expect(first.log).toContain('queue:expense:Expenses:corrected.pdf:3')
    expect(first.log.at(-3)).toBe('notify:resubmitted')
    const second = ready()
    await new Promise<void>((resolve) =>
      second.actor.subscribe((s) => s.matches({ ready: 'idle' }) && resolve()),
    )
    second.actor.send({ type: 'reupload.start' })
    expect(second.log.at(-1)).toBe('queue:invoice:Invoices:facture-juillet.pdf:3')
  })

  it('offers no resubmit for a completed document', async () => {
    const { actor } = run('invoice', {
      loadDocument: async () => completedRecord,
      loadOriginal: async () => pdfBlob,
      loadQuality: async () => ({ errors: [], warnings: [] }),
    })
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches({ ready: 'idle' }) && resolve()))
    expect(actor.getSnapshot().can({ type: 'resubmit.select', file: new File(['x'], 'x.pdf') })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'reupload.start' })).toBe(true)
  })
})
