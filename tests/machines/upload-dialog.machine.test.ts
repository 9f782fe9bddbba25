import { expect, it } from 'vitest'
import { createActor } from 'xstate'
import type { QueuedFile } from '../../contract'
import {
  DOCUMENT_CATEGORIES,
  EXPENSE_PDF_ONLY,
  INVOICE_TABS,
  INVOICE_TYPES_ONLY,
  NO_FILES_SELECTED,
  refusalFor,
  type UploadDialogContext,
  uploadDialogMachine,
} from '../../src/machines/uploads/upload-dialog.machine'
import { describeModel } from '../support/model'

/** A file that serialises as its name: the graph tells event samples apart by their JSON. */
const file = (name: string, type: string) =>
  Object.assign(new File(['x'], name, { type }), { toJSON: () => name })
const pdf = file('facture.pdf', 'application/pdf')
const png = file('scan.png', 'image/png')
const gif = file('logo.gif', 'image/gif')
/** Dropped together with the .docx: the invoice dialog refuses both, the document dialog takes both. */
const lot = file('lot.pdf', 'application/pdf')
const docx = file('contrat.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')

const ctx = (s: { context: unknown }) => s.context as UploadDialogContext
const names = (c: UploadDialogContext) => c.selected.map((s) => `${s.tab}:${s.file.name}`)

/** What the queue must receive for a file selected under a tab, said independently. */
const expected = (tab: string, name: string) =>
  tab === 'invoices'
    ? `invoice/Invoices/${name}`
    : tab === 'expenses'
      ? `expense/Expenses/${name}`
      : `document/${tab}/${name}`
const handed = (files: QueuedFile[]) => files.map((f) => `${f.documentType}/${f.category}/${f.file.name}`)

function expectOpen(c: UploadDialogContext, tabs: readonly string[]) {
  expect(tabs).toContain(c.tab)
  for (const s of c.selected) {
    expect(tabs).toContain(s.tab)
    // Nothing under a tab that refuses it (expenses: PDF or a JPEG/PNG photo; invoices: PDF, JPEG, PNG).
    expect(refusalFor(s.tab, s.file)).toBeNull()
  }
  // A refusal names the rule of the tab it happened under (selecting a tab clears it).
  if (c.error === EXPENSE_PDF_ONLY) expect(c.tab).toBe('expenses')
  if (c.error === INVOICE_TYPES_ONLY) expect(c.tab).toBe('invoices')
  // 'Select at least one file' only while nothing is selected.
  if (c.error === NO_FILES_SELECTED) expect(c.selected).toEqual([])
}

describeModel('upload dialog machine', {
  machine: uploadDialogMachine,
  actors: [],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        submit: ({ context }, { files }) => {
          record(`submit:${handed(files).join(',')}`)
          record(`selected:${context.selected.map((s) => expected(s.tab, s.file.name)).join(',')}`)
        },
      },
    }),
  events: {
    // Dropped on the dashboard: accepted under Invoices, or refused as a whole (the dialog says why).
    'files.drop': [
      { type: 'files.drop', files: [png] },
      { type: 'files.drop', files: [lot, docx] },
    ],
    'tab.select': [
      { type: 'tab.select', tab: 'expenses' },
      { type: 'tab.select', tab: 'invoices' },
      // A document category: refused by the invoice dialog, a tab of the document dialog.
      { type: 'tab.select', tab: 'RH' },
    ],
    'files.add': [
      { type: 'files.add', files: [pdf] },
      { type: 'files.add', files: [png] },
      // One refused file refuses the whole drop under the invoice dialog's tabs.
      { type: 'files.add', files: [lot, docx] },
    ],
    'file.remove': [
      { type: 'file.remove', index: 0 },
      { type: 'file.remove', index: 5 },
    ],
  },
  contextKey: (c) => {
    const { tab, error } = c as UploadDialogContext
    // Two files are enough to show the list growing; more would only repeat it.
    return { tab, error, selected: names(c as UploadDialogContext).slice(0, 2) }
  },
  limit: 3000,
  states: {
    closed: (s, log) => {
      expect(s.hasTag('open')).toBe(false)
      expect(s.can({ type: 'files.add', files: [pdf] })).toBe(false)
      expect(s.can({ type: 'dialog.submit' })).toBe(false)
      // Each submit handed the queue the whole selection, typed by the tab each file was added under.
      const submits = log.filter((l) => l.startsWith('submit:'))
      const selections = log.filter((l) => l.startsWith('selected:'))
      expect(submits.map((l) => l.slice('submit:'.length))).toEqual(
        selections.map((l) => l.slice('selected:'.length)),
      )
      for (const line of submits) expect(line).not.toBe('submit:')
    },
    'open.invoice': (s) => {
      expect(s.hasTag('open')).toBe(true)
      expectOpen(ctx(s), INVOICE_TABS)
      // One refused file in a drop: nothing of that drop is added.
      expect(names(ctx(s)).some((n) => n.endsWith(':lot.pdf'))).toBe(false)
    },
    'open.document': (s) => {
      expect(s.hasTag('open')).toBe(true)
      expectOpen(ctx(s), DOCUMENT_CATEGORIES)
      // Any file under a category: the only possible complaint is an empty submit.
      expect([null, NO_FILES_SELECTED]).toContain(ctx(s).error)
    },
  },
})

it('opens either dialog on its first tab with nothing selected, whatever the last one left', () => {
  const dialog = createActor(uploadDialogMachine).start()
  dialog.send({ type: 'dialog.openDocument' })
  dialog.send({ type: 'tab.select', tab: 'RH' })
  dialog.send({ type: 'files.add', files: [docx] })
  dialog.send({ type: 'dialog.close' })
  dialog.send({ type: 'dialog.openInvoice' })
  expect(dialog.getSnapshot().context).toEqual({ tab: 'invoices', selected: [], error: null })
  dialog.send({ type: 'dialog.submit' })
  expect(dialog.getSnapshot().context.error).toBe(NO_FILES_SELECTED)
  dialog.send({ type: 'dialog.close' })
  dialog.send({ type: 'dialog.openDocument' })
  expect(dialog.getSnapshot().context).toEqual({ tab: 'Administration', selected: [], error: null })
})

it('keeps the files of both tabs apart and queues each under its own tab, in the order added', () => {
  const queued: QueuedFile[][] = []
  const dialog = createActor(
    uploadDialogMachine.provide({ actions: { submit: (_, { files }) => queued.push(files) } }),
  ).start()
  dialog.send({ type: 'dialog.openInvoice' })
  dialog.send({ type: 'files.add', files: [png, pdf] })
  dialog.send({ type: 'tab.select', tab: 'expenses' })
  dialog.send({ type: 'files.add', files: [gif] })
  expect(dialog.getSnapshot().context.error).toBe(EXPENSE_PDF_ONLY)
  dialog.send({ type: 'files.add', files: [pdf] })
  dialog.send({ type: 'file.remove', index: 0 })
  dialog.send({ type: 'dialog.submit' })
  expect(queued.map((files) => handed(files))).toEqual([
    ['invoice/Invoices/facture.pdf', 'expense/Expenses/facture.pdf'],
  ])
  expect(dialog.getSnapshot().value).toBe('closed')
})

it('selects a file picked twice under one tab once, and a removal clears the last refusal', () => {
  const queued: QueuedFile[][] = []
  const dialog = createActor(
    uploadDialogMachine.provide({ actions: { submit: (_, { files }) => queued.push(files) } }),
  ).start()
  dialog.send({ type: 'dialog.openInvoice' })
  const again = new File([pdf], pdf.name, { type: pdf.type, lastModified: pdf.lastModified })
  dialog.send({ type: 'files.add', files: [pdf, pdf] })
  dialog.send({ type: 'files.add', files: [again] })
  expect(dialog.getSnapshot().context.selected).toHaveLength(1)
  dialog.send({ type: 'tab.select', tab: 'expenses' })
  dialog.send({ type: 'files.add', files: [pdf] })
  dialog.send({ type: 'files.add', files: [gif] })
  expect(dialog.getSnapshot().context.error).toBe(EXPENSE_PDF_ONLY)
  dialog.send({ type: 'file.remove', index: 1 })
  expect(dialog.getSnapshot().context.error).toBeNull()
  dialog.send({ type: 'files.add', files: [pdf] })
  dialog.send({ type: 'dialog.submit' })
  expect(queued.map((files) => handed(files))).toEqual([
    ['invoice/Invoices/facture.pdf', 'expense/Expenses/facture.pdf'],
  ])
})

it('files dropped on the dashboard open the invoice dialog with them under Invoices, or with the reason they were refused', () => {
  const dialog = createActor(uploadDialogMachine).start()
  dialog.send({ type: 'files.drop', files: [png, pdf] })
  expect(dialog.getSnapshot().matches({ open: 'invoice' })).toBe(true)
  expect(names(ctx(dialog.getSnapshot()))).toEqual(['invoices:scan.png', 'invoices:facture.pdf'])
  dialog.send({ type: 'dialog.close' })
  dialog.send({ type: 'files.drop', files: [lot, docx] })
  expect(ctx(dialog.getSnapshot())).toMatchObject({
    tab: 'invoices',
    selected: [],
    error: INVOICE_TYPES_ONLY,
  })
})

it('takes JPEG and PNG photos under Expenses, each queued as an expense of its own, and refuses other images', () => {
  const queued: QueuedFile[][] = []
  const dialog = createActor(
    uploadDialogMachine.provide({ actions: { submit: (_, { files }) => queued.push(files) } }),
  ).start()
  const jpeg = file('IMG_1234.JPG', '')
  dialog.send({ type: 'dialog.openInvoice' })
  dialog.send({ type: 'tab.select', tab: 'expenses' })
  dialog.send({ type: 'files.add', files: [jpeg] })
  dialog.send({ type: 'files.add', files: [png] })
  expect(dialog.getSnapshot().context.error).toBeNull()
  dialog.send({ type: 'files.add', files: [gif] })
  expect(dialog.getSnapshot().context.error).toBe(EXPENSE_PDF_ONLY)
  expect(names(ctx(dialog.getSnapshot()))).toEqual(['expenses:IMG_1234.JPG', 'expenses:scan.png'])
  dialog.send({ type: 'dialog.submit' })
  expect(queued.map((files) => handed(files))).toEqual([
    ['expense/Expenses/IMG_1234.JPG', 'expense/Expenses/scan.png'],
  ])
})
