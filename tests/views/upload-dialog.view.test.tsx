import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { expect, it } from 'vitest'
import { createActor } from 'xstate'
import type { QueuedFile } from '../../contract'
import { uploadDialogMachine } from '../../src/machines/uploads/upload-dialog.machine'
import UploadDialog from '../../src/ui/views/uploads/upload-dialog'

i18n.load('en', {})
i18n.activate('en')

function setup(open: 'dialog.openInvoice' | 'dialog.openDocument') {
  const submitted: QueuedFile[][] = []
  const dialog = createActor(
    uploadDialogMachine.provide({ actions: { submit: (_, { files }) => submitted.push(files) } }),
  ).start()
  dialog.send({ type: open })
  const view = render(
    <I18nProvider i18n={i18n}>
      <UploadDialog dialog={dialog} />
    </I18nProvider>,
  )
  return { dialog, submitted, view, user: userEvent.setup({ applyAccept: false }) }
}

const pdf = (name: string) => new File(['%PDF-1.4'], name, { type: 'application/pdf' })
const png = (name: string) => new File(['png'], name, { type: 'image/png' })

it('refuses to upload nothing, refuses a non-PDF expense without adding it, and queues the PDF as an expense', async () => {
  const { dialog, submitted, user } = setup('dialog.openInvoice')
  await user.click(screen.getByRole('button', { name: 'Upload' }))
  expect((await screen.findByRole('alert')).textContent).toBe('Please select at least one file to upload')
  expect(submitted).toEqual([])

  await user.click(screen.getByRole('tab', { name: 'Expenses' }))
  await user.upload(screen.getByLabelText('Files for Expenses'), png('receipt.png'))
  expect((await screen.findByRole('alert')).textContent).toBe('Only PDF files are supported for expenses')
  expect(screen.queryByRole('region', { name: 'Selected files' })).toBeNull()
  expect(dialog.getSnapshot().context.selected).toEqual([])

  await user.upload(screen.getByLabelText('Files for Expenses'), pdf('ticket.pdf'))
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
  expect(screen.getByRole('region', { name: 'Selected files' }).textContent).toContain('ticket.pdf')

  await user.click(screen.getByRole('button', { name: 'Upload' }))
  expect(submitted).toHaveLength(1)
  expect(submitted[0]!.map((f) => [f.file.name, f.documentType, f.category])).toEqual([
    ['ticket.pdf', 'expense', 'Expenses'],
  ])
  expect(dialog.getSnapshot().value).toBe('closed')
})

it('accepts images on the invoices tab and any file under a document category, removable before sending', async () => {
  const { submitted, user } = setup('dialog.openDocument')
  // The nine categories are a select's options, none clipped as tabs would be.
  expect(screen.queryAllByRole('tab')).toHaveLength(0)
  const category = screen.getByRole('combobox', { name: 'Category' })
  expect(screen.getAllByRole('option')).toHaveLength(9)
  await user.selectOptions(category, 'RH')
  await user.upload(screen.getByLabelText('Files for HR'), [
    new File(['a'], 'contrat.docx', {
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    }),
    png('scan.png'),
  ])
  await user.click(screen.getByRole('button', { name: 'Remove scan.png' }))
  await user.click(screen.getByRole('button', { name: 'Upload' }))
  expect(submitted[0]!.map((f) => [f.file.name, f.documentType, f.category])).toEqual([
    ['contrat.docx', 'document', 'RH'],
  ])

  const invoices = setup('dialog.openInvoice')
  await invoices.user.upload(screen.getAllByLabelText('Files for Invoices').at(-1)!, png('facture.png'))
  await invoices.user.click(screen.getAllByRole('button', { name: 'Upload' }).at(-1)!)
  expect(invoices.submitted[0]!.map((f) => [f.file.name, f.documentType, f.category])).toEqual([
    ['facture.png', 'invoice', 'Invoices'],
  ])
})
