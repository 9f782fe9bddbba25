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

it('refuses to upload nothing, refuses an expense that is neither a PDF nor a photo, and queues a PDF and a photo as expenses', async () => {
  const { dialog, submitted, user } = setup('dialog.openInvoice')
  await user.click(screen.getByRole('button', { name: 'Upload' }))
  expect((await screen.findByRole('alert')).textContent).toBe('Please select at least one file to upload')
  expect(submitted).toEqual([])

  await user.click(screen.getByRole('tab', { name: 'Expenses' }))
  const input = screen.getByLabelText('Files for Expenses')
  // The picker offers PDFs and photos; no `capture`, so a phone offers its camera and its library.
  expect(input.getAttribute('accept')?.split(',')).toEqual(
    expect.arrayContaining(['application/pdf', 'image/jpeg', 'image/png']),
  )
  expect(input.hasAttribute('capture')).toBe(false)
  await user.upload(input, new File(['gif'], 'receipt.gif', { type: 'image/gif' }))
  expect((await screen.findByRole('alert')).textContent).toBe('Only PDF files are supported for expenses')
  expect(screen.queryByRole('region', { name: 'Selected files' })).toBeNull()
  expect(dialog.getSnapshot().context.selected).toEqual([])

  await user.upload(input, pdf('ticket.pdf'))
  await waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
  await user.upload(input, new File(['jpeg'], 'IMG_1234.jpg', { type: 'image/jpeg' }))
  const selected = screen.getByRole('region', { name: 'Selected files' })
  expect(selected.textContent).toContain('ticket.pdf')
  // The photo shows as a thumbnail of itself.
  const photoRow = screen.getByTitle('IMG_1234.jpg').closest('li')!
  await waitFor(() =>
    expect(photoRow.querySelector('img[data-thumbnail]')?.getAttribute('src')).toMatch(/^blob:/),
  )

  await user.click(screen.getByRole('button', { name: 'Upload' }))
  expect(submitted).toHaveLength(1)
  expect(submitted[0]!.map((f) => [f.file.name, f.documentType, f.category])).toEqual([
    ['ticket.pdf', 'expense', 'Expenses'],
    ['IMG_1234.jpg', 'expense', 'Expenses'],
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
