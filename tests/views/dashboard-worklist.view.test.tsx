/**
 * The dashboard as a worklist: invoice and expense rows show their supplier, invoice date and total
 * incl. VAT (sortable); a completed row with warnings is marked "Needs review" with its reasons on
 * hover and focus, a duplicate naming (and opening) the earlier document; a row opens its details
 * from its file name or Enter, and focus comes back to it when they close. Rows come from `GET /logs`
 * answers shaped as the server sends them, read by the real logs client and dashboard machine.
 */
import { readFileSync } from 'node:fs'
import { i18n } from '@lingui/core'
import { generateMessageId } from '@lingui/message-utils/generateMessageId'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import type { DetailsApi } from '../../src/api/details'
import { createHttp } from '../../src/api/http'
import { createLogsApi } from '../../src/api/logs'
import { createDashboardImplementations } from '../../src/machines/dashboard/dashboard.implementations'
import { toQuery } from '../../src/machines/dashboard/dashboard.machine'
import { NO_FILTERS } from '../../src/machines/dashboard/filters.machine'
import { createDetailsImplementations } from '../../src/machines/details/details.implementations'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { uploadDialogMachine } from '../../src/machines/uploads/upload-dialog.machine'
import { toastNotify } from '../../src/ui/notify'
import { CompanyDashboardView } from '../../src/ui/views/dashboard/dashboard-view'
import { DropAnywhere } from '../../src/ui/views/dashboard/drop-anywhere'
import '../../src/ui/views/details/document-detail-dialog'
import { ada } from '../support/fixtures'
import { inApp, testActors } from '../support/render'

const COMPANY = 7
const base = {
  date: '2026-11-20T10:00:00.000Z',
  category: 'Invoices',
  source: 'upload',
  sender: null,
  subject: null,
  message_id: null,
  reason: null,
  invoice_number: null,
  supplier: null,
  doc_date: null,
  total: null,
  warnings: [],
  duplicate: null,
}
const invoice = {
  ...base,
  id: 1,
  document_id: 11,
  type: 'Invoice',
  name: 'invoice-march.pdf',
  status: 'COMPLETED',
  supplier: 'Alpha Services',
  invoice_number: 'F-7',
  doc_date: '2026-01-10',
  total: '1234.50',
  warnings: ['duplicate', 'date_in_future'],
  duplicate: { document_id: 4, name: 'receipt-4.pdf', kind: 'expense' },
}
const expense = {
  ...base,
  id: 2,
  document_id: 12,
  type: 'Expense',
  name: 'taxi.pdf',
  status: 'COMPLETED',
  category: 'Expenses',
  supplier: 'Cab Co',
  doc_date: '2025-12-24',
  total: 12.3,
}
// Warnings on a failed row are not a review matter: its failure is.
const failed = { ...invoice, id: 3, document_id: 13, name: 'broken.pdf', status: 'FAILED' }
const note = { ...base, id: 5, document_id: 15, type: 'Document', name: 'notes.pdf', status: 'COMPLETED' }

/** The dashboard of a company whose `GET /logs` answers `rows`, through the real client. */
function renderDashboard(rows: unknown[]) {
  const requests: URL[] = []
  const fetchFake = async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : input.toString())
    requests.push(url)
    return Response.json(
      url.pathname.endsWith('/logs/summary') ? { total: rows.length, pending: 0, failed: 1 } : rows,
    )
  }
  const logs = createLogsApi(createHttp({ baseUrl: 'http://app.test/api', fetch: fetchFake }))
  const { dashboard } = createDashboardImplementations({ api: { logs }, notify: () => {} })
  const actor = createActor(dashboard, { input: { companyId: COMPANY } }).start()
  // The details dialog's requests never answer: its own behaviour is tested elsewhere.
  const never = () => new Promise<never>(() => {})
  const details = new Proxy({}, { get: () => never }) as DetailsApi
  const machines = Promise.resolve(
    createDetailsImplementations({ details, notify: toastNotify, uploadQueue: {} as never }),
  )
  const session = createActor(
    sessionMachine.provide({
      actors: {
        checkSession: fromPromise(async (): Promise<typeof ada | null> => ada),
        fetchUser: fromPromise(async () => ada),
      },
    }),
  )
  render(
    inApp(
      <CompanyDashboardView dashboard={actor} companyId={COMPANY} />,
      testActors({ session: session.start(), loadDetails: () => machines }),
    ),
  )
  return { actor, requests }
}

async function row(name: string) {
  const cell = await screen.findByTitle(name)
  return cell.closest('tr')!
}
const cells = (tr: HTMLElement) =>
  within(tr)
    .getAllByRole('cell')
    .map((c) => c.textContent)

afterEach(() => i18n.activate('en'))

describe('worklist columns', () => {
  it('shows supplier, invoice date and total incl. VAT of invoices and expenses, nothing for a document', async () => {
    renderDashboard([invoice, expense, note])
    await row('notes.pdf')
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers.slice(0, 6)).toEqual([
      'Document',
      'Type',
      'Supplier',
      'Invoice date',
      'Total incl. VAT',
      'Uploaded date↓',
    ])
    expect(cells(await row('invoice-march.pdf')).slice(1, 5)).toEqual([
      'Invoice',
      'Alpha Services',
      'Jan 10, 2026',
      '1,234.50',
    ])
    expect(cells(await row('taxi.pdf')).slice(1, 5)).toEqual(['Expense', 'Cab Co', 'Dec 24, 2025', '12.30'])
    expect(cells(await row('notes.pdf')).slice(1, 5)).toEqual(['Document', '', '', ''])
  })

  it('sorts by supplier, invoice date and total on the server', async () => {
    const user = userEvent.setup()
    const { requests } = renderDashboard([invoice, expense])
    await row('taxi.pdf')
    const sortBy = () =>
      requests
        .filter((u) => u.pathname.endsWith('/logs'))
        .at(-1)
        ?.searchParams.get('sort_by')
    for (const [label, column] of [
      ['Supplier', 'supplier'],
      ['Invoice date', 'doc_date'],
      ['Total incl. VAT', 'total'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: label }))
      await waitFor(() => expect(sortBy()).toBe(column))
      expect(screen.getByRole('columnheader', { name: new RegExp(label) }).getAttribute('aria-sort')).toBe(
        'ascending',
      )
    }
  })

  it('the type filter asks the server for expenses', () => {
    const query = toQuery(
      {
        companyId: COMPANY,
        filters: { ...NO_FILTERS, type: 'expense' },
        sortBy: 'date',
        sortOrder: 'desc',
        searchTerm: '',
        offset: 0,
        limit: 50,
      },
      new Date(),
    )
    expect(query.elementType).toBe('Expense')
  })
})

describe('needs review', () => {
  it('marks a completed row with warnings and gives the reasons to hover and focus', async () => {
    const user = userEvent.setup()
    renderDashboard([invoice, expense, failed])
    const marker = within(await row('invoice-march.pdf')).getByText('Needs review')
    expect(within(await row('taxi.pdf')).queryByText('Needs review')).toBeNull()
    expect(within(await row('broken.pdf')).queryByText('Needs review')).toBeNull()
    const focusable = marker.closest('[tabindex="0"]') as HTMLElement
    const reasons = document.getElementById(focusable.getAttribute('aria-describedby')!)!
    expect(reasons.textContent).toContain('The document date is in the future')
    expect(reasons.textContent).toContain('Likely duplicate of receipt-4.pdf')
    // Tab reaches the marker, then the earlier document's link inside the reasons.
    focusable.focus()
    await user.tab()
    expect(document.activeElement).toBe(within(reasons).getByRole('button', { name: 'receipt-4.pdf' }))
  })

  it('opens the earlier document a duplicate names', async () => {
    const user = userEvent.setup()
    renderDashboard([invoice])
    await user.click(within(await row('invoice-march.pdf')).getByRole('button', { name: 'receipt-4.pdf' }))
    expect(await screen.findByRole('dialog', { name: 'Expense details' })).toBeDefined()
  })

  it('says it in French', async () => {
    const po = readFileSync('locales/fr/common.po', 'utf8')
    const french = (source: string) => new RegExp(`msgid "${source}"\\nmsgstr "(.+)"`).exec(po)![1]!
    const texts = ['Needs review', 'The document date is in the future']
    i18n.load('fr', Object.fromEntries(texts.map((text) => [generateMessageId(text), french(text)])))
    i18n.activate('fr')
    renderDashboard([invoice])
    const tr = await row('invoice-march.pdf')
    expect(within(tr).getByText(french('Needs review'))).toBeDefined()
    expect(within(tr).getByText(french('The document date is in the future'))).toBeDefined()
    expect(french('Needs review')).not.toBe('Needs review')
  })
})

describe('opening a row', () => {
  it('a click on the file name opens its details, and focus is back in the row when they close', async () => {
    const user = userEvent.setup()
    renderDashboard([invoice, expense])
    await user.click(await screen.findByTitle('invoice-march.pdf'))
    await screen.findByRole('dialog', { name: 'Invoice details' })
    await user.click(screen.getByRole('button', { name: 'Close details' }))
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByTitle('invoice-march.pdf').closest('tr')),
    )
  })

  it('Enter on a focused row opens its details; Escape closes them and focus returns to the row', async () => {
    const user = userEvent.setup()
    renderDashboard([invoice, expense])
    ;(await row('taxi.pdf')).focus()
    await user.keyboard('{Enter}')
    await screen.findByRole('dialog', { name: 'Expense details' })
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTitle('taxi.pdf').closest('tr')))
  })
})

describe('dropping files on the dashboard', () => {
  it('shows a veil while files are over the window, and the drop opens the invoice dialog with them', async () => {
    const uploadDialog = createActor(uploadDialogMachine).start()
    render(inApp(<DropAnywhere />, testActors({ session: createActor(sessionMachine), uploadDialog })))
    const file = new File(['%PDF-1.4'], 'dropped.pdf', { type: 'application/pdf' })
    const dataTransfer = { types: ['Files'], files: [file] }
    // The veil is aria-hidden: found by its text.
    expect(screen.queryByText('Drop the files to upload them')).toBeNull()
    // The router mounts the view after a tick: drag until it listens.
    await waitFor(() => {
      fireEvent.dragEnter(window, { dataTransfer })
      expect(screen.getByText('Drop the files to upload them')).toBeDefined()
    })
    fireEvent.drop(window, { dataTransfer })
    await waitFor(() => expect(screen.queryByText('Drop the files to upload them')).toBeNull())
    expect(uploadDialog.getSnapshot().matches({ open: 'invoice' })).toBe(true)
    expect(uploadDialog.getSnapshot().context.selected.map((s) => s.file.name)).toEqual(['dropped.pdf'])
  })

  it('ignores a drag that carries no files (text, a link)', async () => {
    const uploadDialog = createActor(uploadDialogMachine).start()
    render(
      inApp(
        <>
          <DropAnywhere />
          <p>mounted</p>
        </>,
        testActors({ session: createActor(sessionMachine), uploadDialog }),
      ),
    )
    await screen.findByText('mounted')
    fireEvent.dragEnter(window, { dataTransfer: { types: ['text/plain'], files: [] } })
    fireEvent.drop(window, { dataTransfer: { types: ['text/plain'], files: [] } })
    expect(screen.queryByText('Drop the files to upload them')).toBeNull()
    expect(uploadDialog.getSnapshot().matches('closed')).toBe(true)
  })
})
