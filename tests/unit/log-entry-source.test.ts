/** A dashboard row says how its document arrived: the contract reads the source fields of `GET /logs`. */
import * as v from 'valibot'
import { expect, it } from 'vitest'
import { LogEntry } from '../../contract'

const row = {
  id: 1,
  document_id: null,
  type: 'Invoice',
  name: 'scan.pdf',
  date: '2026-11-20T10:00:00.000Z',
  status: 'REJECTED',
  category: 'Invoices',
}

it('reads the source, sender, subject and Message-ID of a mailed row, and rows without them', () => {
  const mailed = v.parse(LogEntry, {
    ...row,
    source: 'email',
    sender: 'scanner@office.example',
    subject: 'Scan 42',
    message_id: '<42@office.example>',
  })
  expect(mailed).toMatchObject({ status: 'rejected', source: 'email', sender: 'scanner@office.example' })
  expect(mailed.message_id).toBe('<42@office.example>')
  const uploaded = v.parse(LogEntry, {
    ...row,
    source: 'upload',
    sender: null,
    subject: null,
    message_id: null,
  })
  expect(uploaded.source).toBe('upload')
  expect(v.parse(LogEntry, row).source).toBeUndefined()
})

it('refuses a source the contract does not know', () => {
  expect(v.is(LogEntry, { ...row, source: 'fax' })).toBe(false)
  expect(v.is(LogEntry, { ...row, sender: 42 })).toBe(false)
})
