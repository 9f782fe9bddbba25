import { expect, it } from 'vitest'
import {
  acceptAttribute,
  FINANCIAL_KIND,
  isActiveLogStatus,
  isFailedLogStatus,
  isFileOfType,
  LOG_STATUSES,
  PDF,
  queuedAs,
} from '../../contract'

const picked = (name: string, type: string) => ({ name, type })

it('gives the file pickers the types each kind accepts: extensions, then media types', () => {
  expect(acceptAttribute(FINANCIAL_KIND.invoice.accepted)).toBe(
    '.pdf,.jpg,.jpeg,.png,.xml,application/pdf,image/jpeg,image/png,application/xml,text/xml',
  )
  expect(acceptAttribute(FINANCIAL_KIND.expense.accepted)).toBe('.pdf,application/pdf')
  expect(acceptAttribute([PDF])).toBe('.pdf,application/pdf')
})

it('accepts a chosen file by its reported type or, failing that, by its extension', () => {
  const invoice = FINANCIAL_KIND.invoice.accepted
  const expense = FINANCIAL_KIND.expense.accepted
  expect(isFileOfType(invoice, picked('scan', 'image/png'))).toBe(true)
  expect(isFileOfType(invoice, picked('SCAN.JPEG', ''))).toBe(true)
  expect(isFileOfType(invoice, picked('logo.gif', 'image/gif'))).toBe(false)
  expect(isFileOfType(expense, picked('ticket', 'application/pdf'))).toBe(true)
  expect(isFileOfType(expense, picked('ticket.Pdf', 'application/octet-stream'))).toBe(true)
  expect(isFileOfType(expense, picked('photo.jpg', 'image/jpeg'))).toBe(false)
  // An e-invoice saved without its extension, typed text/xml by the system: an invoice, not an expense.
  expect(isFileOfType(invoice, picked('INV-2026-0042', 'text/xml'))).toBe(true)
  expect(isFileOfType(expense, picked('INV-2026-0042', 'text/xml'))).toBe(false)
})

it('files an invoice or expense upload under its kind’s category', () => {
  const file = new File(['x'], 'a.pdf', { type: 'application/pdf' })
  expect(queuedAs('invoice', file)).toEqual({ file, documentType: 'invoice', category: 'Invoices' })
  expect(queuedAs('expense', file)).toEqual({ file, documentType: 'expense', category: 'Expenses' })
})

it('splits the row statuses into active (pending, processing) and failed (failed, rejected), in any case', () => {
  expect(LOG_STATUSES.filter(isActiveLogStatus)).toEqual(['pending', 'processing'])
  expect(LOG_STATUSES.filter(isFailedLogStatus)).toEqual(['failed', 'rejected'])
  expect(isActiveLogStatus('PROCESSING')).toBe(true)
  expect(isFailedLogStatus('Rejected')).toBe(true)
  expect(isActiveLogStatus('completed') || isFailedLogStatus('completed')).toBe(false)
})
