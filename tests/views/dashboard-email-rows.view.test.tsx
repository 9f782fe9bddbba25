/**
 * Documents received by e-mail show on the dashboard like uploads, with their source: an e-mail
 * icon named for screen readers and the sender's address under the name; a mail that was refused
 * is a `rejected` row with a translated status. The rows come from `GET /logs` answers shaped as
 * the server sends them, read by the real logs client and dashboard machine.
 */
import { readFileSync } from 'node:fs'
import { i18n } from '@lingui/core'
import { generateMessageId } from '@lingui/message-utils/generateMessageId'
import { render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createHttp } from '../../src/api/http'
import { createLogsApi } from '../../src/api/logs'
import { createDashboardImplementations } from '../../src/machines/dashboard/dashboard.implementations'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { CompanyDashboardView } from '../../src/ui/views/dashboard/dashboard-view'
import { inApp, testActors } from '../support/render'

const COMPANY = 7
const upload = {
  id: 1,
  document_id: 11,
  type: 'Invoice',
  name: 'uploaded.pdf',
  date: '2026-11-20T10:00:00.000Z',
  status: 'COMPLETED',
  category: 'Invoices',
  source: 'upload',
  sender: null,
  subject: null,
  message_id: null,
}
const mailed = {
  ...upload,
  id: 2,
  document_id: 12,
  name: 'facture-octobre.pdf',
  status: 'PROCESSING',
  source: 'email',
  sender: 'billing@supplier.example',
  subject: 'Your October invoice',
  message_id: '<abc@supplier.example>',
}
const refused = {
  ...mailed,
  id: 3,
  document_id: null,
  type: 'Expense',
  name: 'receipt.docx',
  status: 'REJECTED',
  category: 'Expenses',
  sender: 'someone@elsewhere.example',
  reason: 'Only PDF files are supported for expenses',
}
/** An answer from a server that predates mail: no source fields at all. */
const {
  source: _s,
  sender: _f,
  subject: _t,
  message_id: _m,
  ...older
} = { ...upload, id: 4, name: 'older.pdf' }

/** The dashboard of a company whose `GET /logs` answers `rows`, through the real client. */
function renderDashboard(rows: unknown[]) {
  const answer = (path: string) =>
    path.includes('/logs/summary') ? { total: rows.length, pending: 1, failed: 1 } : rows
  const fetchFake = async (input: RequestInfo | URL) =>
    Response.json(answer(new URL(input instanceof Request ? input.url : input.toString()).pathname))
  const logs = createLogsApi(createHttp({ baseUrl: 'http://app.test/api', fetch: fetchFake }))
  const { dashboard } = createDashboardImplementations({ api: { logs }, notify: () => {} })
  const actor = createActor(dashboard, { input: { companyId: COMPANY } }).start()
  render(
    inApp(
      <CompanyDashboardView dashboard={actor} companyId={COMPANY} />,
      testActors({ session: createActor(sessionMachine) }),
    ),
  )
  return actor
}

/** The table row whose document is `name`. */
async function row(name: string) {
  const cell = await screen.findByTitle(name)
  return cell.closest('tr')!
}

afterEach(() => i18n.activate('en'))

describe('e-mailed documents on the dashboard', () => {
  it('shows the e-mail icon and the sender under the name of a mailed document, nothing for an upload', async () => {
    renderDashboard([upload, mailed, older])
    const mail = await row('facture-octobre.pdf')
    expect(within(mail).getByRole('img', { name: 'Received by e-mail' })).toBeDefined()
    expect(within(mail).getByText('billing@supplier.example')).toBeDefined()
    // The subject is the sender line's tooltip.
    expect(within(mail).getByText('billing@supplier.example').parentElement?.getAttribute('title')).toBe(
      'Your October invoice',
    )
    expect(within(mail).getByText('Processing')).toBeDefined()
    for (const name of ['uploaded.pdf', 'older.pdf']) {
      const plain = await row(name)
      expect(within(plain).queryByRole('img', { name: 'Received by e-mail' })).toBeNull()
      expect(within(plain).getAllByRole('cell')[0]!.textContent).toBe(name)
    }
  })

  it('shows a refused mail as a rejected row with its sender, in red like a failure', async () => {
    renderDashboard([refused, { ...upload, id: 5, name: 'broken.pdf', status: 'FAILED' }])
    const rejected = await row('receipt.docx')
    const badge = within(rejected).getByText('Rejected')
    expect(badge.getAttribute('data-status')).toBe('rejected')
    const failed = within(await row('broken.pdf')).getByText('Failed')
    expect(badge.style.background).toBe(failed.style.background)
    expect(badge.style.color).toBe(failed.style.color)
    expect(within(rejected).getByText('someone@elsewhere.example')).toBeDefined()
    expect(within(rejected).queryByText('REJECTED')).toBeNull()
    // Why it was not processed, under its name; a failed upload has no such line.
    expect(within(rejected).getByText('Only PDF files are supported for expenses')).toBeDefined()
    expect(within(await row('broken.pdf')).getAllByRole('cell')[0]!.textContent).toBe('broken.pdf')
  })

  it('names the icon and the rejected status in French', async () => {
    const po = readFileSync('locales/fr/common.po', 'utf8')
    const french = (source: string) => new RegExp(`msgid "${source}"\\nmsgstr "(.+)"`).exec(po)![1]!
    const texts = ['Received by e-mail', 'Rejected', 'Only PDF files are supported for expenses']
    i18n.load('fr', Object.fromEntries(texts.map((text) => [generateMessageId(text), french(text)])))
    i18n.activate('fr')
    renderDashboard([refused])
    const rejected = await row('receipt.docx')
    expect(within(rejected).getByRole('img', { name: french('Received by e-mail') })).toBeDefined()
    expect(within(rejected).getByText(french('Rejected'))).toBeDefined()
    expect(within(rejected).getByText(french('Only PDF files are supported for expenses'))).toBeDefined()
    expect(french('Received by e-mail')).not.toBe('Received by e-mail')
  })
})
