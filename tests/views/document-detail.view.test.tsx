/** The document detail statechart's paths, replayed through the rendered dialog. */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AnyActorRef, assign, createActor, fromPromise } from 'xstate'
import type { DetailsApi } from '../../src/api/details'
import { createDetailsImplementations } from '../../src/machines/details/details.implementations'
import type { DocumentDetailContext } from '../../src/machines/details/document-detail.machine'
import { documentDetailMachine, isFailedStatus } from '../../src/machines/details/document-detail.machine'
import { documentEditMachine } from '../../src/machines/details/document-edit.machine'
import { documentPreviewMachine } from '../../src/machines/details/document-preview.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { toastNotify } from '../../src/ui/notify'
import DocumentDetailDialog, { DocumentDetailView } from '../../src/ui/views/details/document-detail-dialog'
import {
  completedRecord,
  detailEvents,
  detailKey,
  failedRecord,
  noFindings,
  PDF_FAILURE,
  pdfBlob,
  pngBlob,
  quality,
  xmlBlob,
} from '../machines/document-detail-fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel, type User } from '../support/view-model'

const PREVIEW_URL = 'blob:preview-1'
const input = { kind: 'invoice' as const, id: 7, companyId: 3 }
const ctx = (s: { context: unknown }) => s.context as DocumentDetailContext
const shown = (name: string) => screen.queryByRole('button', { name })
const isDisabled = (element: HTMLElement | null) => (element as HTMLButtonElement | null)?.disabled

/** A button of the open confirmation (it is not shown outside `confirmingReprocess`). */
async function clickInConfirm(user: User, name: string) {
  const ask = screen.queryByRole('alertdialog')
  if (ask) await user.click(within(ask).getByRole('button', { name }))
}

async function clickIfShown(user: User, name: string) {
  const target = shown(name)
  if (target) await user.click(target)
}

/** The header names the file and shows the status the machine holds (the last saved correction's, else the loaded one). */
function expectHeader(c: DocumentDetailContext) {
  const header = screen.getByRole('dialog').querySelector('[data-part="description"]')
  expect(header?.textContent).toContain('facture-juillet.pdf')
  expect(header?.querySelector('[data-status]')?.getAttribute('data-status')).toBe(
    c.document!.status.toLowerCase(),
  )
}

function expectFields(c: DocumentDetailContext) {
  expectHeader(c)
  expect(screen.getByText('Alpinea Expertise SARL')).toBeDefined()
  expect(screen.getByText('FA-2026-0621')).toBeDefined()
  expect(screen.getByText('Jul 17, 2026')).toBeDefined()
  expect(screen.getByText('€12,508.20')).toBeDefined()
  expect(screen.getByRole('heading', { name: 'Invoice details' })).toBeDefined()
}

function expectPreview(c: DocumentDetailContext) {
  if (c.previewError) {
    expect(screen.getByText('Failed to load PDF')).toBeDefined()
    expect(screen.getByText(PDF_FAILURE)).toBeDefined()
  } else if (c.original?.type.startsWith('image/')) {
    const img = screen.getByRole('img', { name: 'Preview of facture-juillet.pdf' })
    expect(img.getAttribute('src')).toBe(PREVIEW_URL)
  } else if (c.original) {
    // Without the pdf.js preview (a dialog that only reads), the original is a link.
    const link = screen.getByRole('link', { name: 'Preview of facture-juillet.pdf' })
    expect(link.getAttribute('href')).toBe(PREVIEW_URL)
  } else expect(screen.getByText('Loading preview')).toBeDefined()
}

function expectQuality(c: DocumentDetailContext) {
  if (c.quality && !c.quality.errors.length && !c.quality.warnings.length)
    expect(screen.getByText('No quality issues')).toBeDefined()
  else if (c.quality) {
    expect(within(screen.getByRole('list', { name: 'Quality errors' })).getByText('The total is missing'))
    expect(within(screen.getByRole('list', { name: 'Quality warnings' })).getByText('Possible duplicate'))
  } else expect(screen.queryByRole('list', { name: 'Quality errors' })).toBeNull()
}

function expectActions(c: DocumentDetailContext, enabled: boolean) {
  expect(isDisabled(shown('Reupload as expense'))).toBe(!enabled)
  expect(isDisabled(shown('Read again'))).toBe(!enabled)
  if (isFailedStatus(c.document!.status)) {
    expect(isDisabled(shown('Upload to SharePoint'))).toBe(!enabled)
    expect(isDisabled(shown('Upload new PDF'))).toBe(!enabled)
  } else {
    expect(shown('Upload to SharePoint')).toBeNull()
    expect(shown('Upload new PDF')).toBeNull()
  }
}

describeViewModel('document detail dialog', {
  machine: documentDetailMachine,
  input,
  actors: ['loadDocument', 'loadOriginal', 'loadQuality', 'deleteDocument', 'reprocessDocument'],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        notify: (_, p) => record(`notify:${p.notice}`),
        queueUpload: (_, p) => record(`queue:${p.file.documentType}:${p.file.category}`),
        createPreviewUrl: assign({ previewUrl: PREVIEW_URL }),
        revokePreviewUrl: (_, p) => record(`revoke:${p.url}`),
        close: () => record('close'),
      },
    }),
  mount: (machine, inspect, clock) => {
    const actor = createActor(machine, { input, inspect, clock })
    actor.start()
    return {
      element: inApp(
        <DocumentDetailView actor={actor} />,
        testActors({ session: createActor(sessionMachine) }),
      ),
      actor: actor as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    'resubmit.select': async (_user, event) => {
      const picker = screen.queryByLabelText('Resubmit with a new PDF')
      // A file picker can still hand over any file ("All files"): the machine decides.
      if (picker) fireEvent.change(picker, { target: { files: [event.file] } })
    },
    'category.select': async (user, event) => {
      const select = screen.queryByLabelText('SharePoint category')
      if (select) await user.selectOptions(select, String(event.category))
    },
    'store.upload': (user) => clickIfShown(user, 'Upload to SharePoint'),
    'reupload.start': (user) => clickIfShown(user, 'Reupload as expense'),
    'reprocess.start': (user) => clickIfShown(user, 'Read again'),
    'dialog.close': (user) => clickIfShown(user, 'Close details'),
    'reprocess.confirm': (user) => clickInConfirm(user, 'Read again'),
    'reprocess.cancel': (user) => clickInConfirm(user, 'Cancel'),
  },
  events: detailEvents([pdfBlob, pngBlob, xmlBlob]),
  contextKey: detailKey,
  limit: 1000,
  views: {
    loading: () => expect(screen.getByText('Loading details')).toBeDefined(),
    failed: () => {
      expect(screen.getByRole('alert').textContent).toBe('Document not found')
      expect(shown('Reupload as expense')).toBeNull()
    },
    'attachments.preview.loading': (s) => {
      expectFields(ctx(s))
      expectPreview(ctx(s))
      expectActions(ctx(s), false)
    },
    'attachments.preview.shown': (s) => expectPreview(ctx(s)),
    'attachments.preview.failed': (s) => expectPreview(ctx(s)),
    'attachments.quality.loading': (s) => {
      expectHeader(ctx(s))
      expect(screen.getByText('Loading quality data')).toBeDefined()
    },
    'attachments.quality.loaded': (s) => expectQuality(ctx(s)),
    'attachments.quality.failed': (s) => expectQuality(ctx(s)),
    'ready.idle': (s) => {
      const c = ctx(s)
      expectFields(ctx(s))
      expectPreview(c)
      expectQuality(c)
      expectActions(c, true)
      if (c.fileError === 'Only PDF files are supported for invoices')
        expect(screen.getByText('Only PDF files are supported for invoices')).toBeDefined()
      if (c.fileError === 'Only PDF files are supported for expenses')
        expect(screen.getByText('Only PDF files are supported for expenses')).toBeDefined()
      if (c.fileError === null) expect(screen.queryByText(/Only PDF files/)).toBeNull()
    },
    'ready.working': (s) => {
      expect(screen.getByText('Working…')).toBeDefined()
      expectActions(ctx(s), false)
      expect(isDisabled(screen.getByRole('button', { name: 'Close details' }))).toBe(true)
    },
    'ready.confirmingReprocess': () => {
      const ask = screen.getByRole('alertdialog', { name: 'Read this document again?' })
      expect(ask.textContent).toContain('clears the confirmation')
      expect(within(ask).getByRole('button', { name: 'Cancel' })).toBeDefined()
      expect(screen.queryByText('Working…')).toBeNull()
    },
    'ready.reprocessing': (s) => {
      expect(screen.getByText('Working…')).toBeDefined()
      expectActions(ctx(s), false)
      expect(isDisabled(screen.getByRole('button', { name: 'Close details' }))).toBe(true)
    },
    closed: () => expect(screen.queryByRole('dialog')).toBeNull(),
  },
})

describe('document detail dialog (lazily loaded machine)', () => {
  it('loads the detail machine, shows the record, and calls onClose when the machine closes', async () => {
    const machine = documentDetailMachine.provide({
      actors: {
        loadDocument: fromPromise(async () => completedRecord),
        loadOriginal: fromPromise(async () => pdfBlob),
        loadQuality: fromPromise(async () => quality),
        deleteDocument: fromPromise(async (): Promise<void> => {}),
      },
      actions: { createPreviewUrl: assign({ previewUrl: PREVIEW_URL }) },
    })
    const machines = Promise.resolve({
      documentDetail: machine,
      documentEdit: documentEditMachine,
      documentPreview: () => documentPreviewMachine,
      releasePreview: () => {},
    })
    let closed = 0
    render(
      inApp(
        <DocumentDetailDialog kind="expense" id={7} companyId={3} onClose={() => closed++} />,
        testActors({ session: createActor(sessionMachine), loadDetails: () => machines }),
      ),
    )
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Expense details' })).toBeDefined())
    await waitFor(() => expect(screen.getByDisplayValue('Alpinea Expertise SARL')).toBeDefined())
    expect(screen.getByLabelText('Expense date')).toBeDefined()
    expect(screen.queryByRole('button', { name: 'Upload new PDF' })).toBeNull()
    await waitFor(() => expect(isDisabled(shown('Reupload as invoice'))).toBe(false))
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close details' }))
    await waitFor(() => expect(closed).toBe(1))
  })

  it('shows the status a saved correction answers in its header and actions, and tells its host once', async () => {
    let corrected = false
    const details = {
      get: async () => ({ ...failedRecord, invoice_number: null }),
      download: async () => pdfBlob,
      quality: async () => (corrected ? noFindings : quality),
      remove: async () => {},
      history: async () => [],
      correct: async () => {
        corrected = true
        return { document: completedRecord, quality: { errors: [], warnings: [] } }
      },
    } as unknown as DetailsApi
    const machines = Promise.resolve(
      createDetailsImplementations({ details, notify: () => {}, uploadQueue: {} as never }),
    )
    let saved = 0
    render(
      inApp(
        <DocumentDetailDialog
          kind="invoice"
          id={7}
          companyId={3}
          onClose={() => {}}
          onSaved={() => saved++}
        />,
        testActors({ session: createActor(sessionMachine), loadDetails: () => machines }),
      ),
    )
    const badge = () =>
      screen
        .getByRole('dialog')
        .querySelector('[data-part="description"] [data-status]')
        ?.getAttribute('data-status')
    await waitFor(() => expect(badge()).toBe('failed'))
    await waitFor(() => expect(isDisabled(shown('Upload new PDF'))).toBe(false))
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Invoice number'), 'FA-2026-0621')
    await user.click(screen.getByRole('button', { name: 'Save corrections' }))
    await waitFor(() => expect(badge()).toBe('completed'))
    // A complete document offers no resubmit; its findings are the saved ones.
    expect(shown('Upload new PDF')).toBeNull()
    expect(screen.getByText('No quality issues')).toBeDefined()
    expect(saved).toBe(1)
  })

  it('shows the expense fallback when the record fails without a message', async () => {
    const machine = documentDetailMachine.provide({
      actors: { loadDocument: fromPromise(async () => Promise.reject({})) },
    })
    const machines = Promise.resolve({
      documentDetail: machine,
      documentEdit: documentEditMachine,
      documentPreview: () => documentPreviewMachine,
      releasePreview: () => {},
    })
    render(
      inApp(
        <DocumentDetailDialog kind="expense" id={7} companyId={3} onClose={() => {}} />,
        testActors({ session: createActor(sessionMachine), loadDetails: () => machines }),
      ),
    )
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Failed to load expense details. Please try again.'),
    )
  })
})

describe('document detail dialog, the preview object URL', () => {
  afterEach(() => vi.restoreAllMocks())

  /** The app's composition (object URLs from the global URL), a record with its PDF preview. */
  function open(onClose: () => void = () => {}) {
    let made = 0
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:preview-${++made}`)
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    const details = {
      get: async () => completedRecord,
      download: async () => pdfBlob,
      quality: async () => quality,
      remove: async () => {},
    } as unknown as DetailsApi
    const machines = Promise.resolve(
      createDetailsImplementations({ details, notify: toastNotify, uploadQueue: {} as never }),
    )
    const view = render(
      <StrictMode>
        {inApp(
          <DocumentDetailDialog kind="invoice" id={7} companyId={3} onClose={onClose} />,
          testActors({ session: createActor(sessionMachine), loadDetails: () => machines }),
        )}
      </StrictMode>,
    )
    return { view, create, revoke }
  }
  /** The preview took the URL's file: drawn by pdf.js, or its failure shown (no canvas here). */
  const previewShown = () =>
    waitFor(() =>
      expect(
        screen.queryByTitle('Preview of facture-juillet.pdf') ?? screen.queryByText('Failed to load PDF'),
      ).not.toBeNull(),
    )

  it('revokes it when the dialog is unmounted without being closed (company switched, signed out)', async () => {
    const { view, create, revoke } = open()
    await previewShown()
    expect(create).toHaveBeenCalledTimes(1)
    // Strict mode's second effect pass did not revoke the URL the frame shows.
    expect(revoke).not.toHaveBeenCalled()
    view.unmount()
    expect(revoke).toHaveBeenCalledTimes(1)
    expect(revoke).toHaveBeenCalledWith('blob:preview-1')
  })

  it('revokes it once when the dialog is closed, then unmounted by its host', async () => {
    let closed = 0
    const { view, revoke } = open(() => closed++)
    await previewShown()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close details' }))
    await waitFor(() => expect(closed).toBe(1))
    expect(revoke).toHaveBeenCalledWith('blob:preview-1')
    view.unmount()
    expect(revoke).toHaveBeenCalledTimes(1)
  })
})
