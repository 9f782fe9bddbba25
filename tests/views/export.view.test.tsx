/** The export statechart's paths, replayed through the dashboard's Export button and dialog. */
import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { type AnyActorRef, type AnyMachineSnapshot, createActor } from 'xstate'
import { type ExportContext, exportMachine } from '../../src/machines/dashboard/export.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { i18n } from '../../src/ui/i18n'
import { ExportView } from '../../src/ui/views/dashboard/export-dialog'
import ExportForm from '../../src/ui/views/dashboard/export-form'
import { exportEvents, FILTERED } from '../machines/export-fixtures'
import { inApp, testActors } from '../support/render'
import { describeViewModel } from '../support/view-model'

const ctx = (s: AnyMachineSnapshot) => s.context as ExportContext
const dialog = () => screen.queryByRole('dialog', { name: 'Export to CSV' })
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement | HTMLSelectElement

describeViewModel('export dialog', {
  machine: exportMachine,
  input: { companyId: 3 },
  actors: [],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        download: (_, r) =>
          record(`download:${r.kind}:${r.separator}:${r.status}:${r.startDate}:${r.endDate}`),
        notify: () => {},
      },
    }),
  mount: (machine, inspect, clock) => {
    const actor = createActor(machine, { inspect, clock, input: { companyId: 3 } })
    actor.start()
    return {
      element: inApp(
        <ExportView actor={actor} Form={ExportForm} />,
        testActors({ session: createActor(sessionMachine) }),
      ),
      actor: actor as AnyActorRef,
    }
  },
  render: (element) => render(element),
  ui: {
    // The Export button opens the dialog in the active language (English here).
    'export.open': (user) => user.click(screen.getByRole('button', { name: 'Export CSV' })),
    'kind.select': (user, e) => user.selectOptions(field('Documents'), String(e.kind)),
    'status.select': (user, e) => user.selectOptions(field('Status'), String(e.status)),
    'separator.select': (user, e) => user.selectOptions(field('Separator'), String(e.separator)),
    // The date inputs: each change sends the whole range.
    'range.change': async (_user, e) => {
      fireEvent.change(field('From'), { target: { value: String(e.startDate) } })
      fireEvent.change(field('To'), { target: { value: String(e.endDate) } })
    },
    'export.submit': (user) => user.click(screen.getByRole('button', { name: 'Download' })),
    'export.cancel': (user) => user.click(screen.getByRole('button', { name: 'Cancel' })),
  },
  // The dialog opens in English from an unfiltered worklist: the French, filtered sample is the machine test's.
  allowed: (_s, e) => !(e.type === 'export.open' && (e as { language?: string }).language === 'fr'),
  events: exportEvents,
  contextKey: (c) => ({ error: (c as ExportContext).rangeError, separator: (c as ExportContext).separator }),
  limit: 100,
  views: {
    closed: (s) => {
      expect(dialog()).toBeNull()
      expect(s.context).toBeDefined()
    },
    open: (s) => {
      const c = ctx(s)
      expect(dialog()).not.toBeNull()
      expect(i18n.locale).toBe('en')
      expect(field('Separator').value).toBe(c.separator)
      expect(field('Documents').value).toBe(c.kind)
      expect(field('From').value).toBe(c.startDate)
      expect(field('To').value).toBe(c.endDate)
      if (c.rangeError) expect(screen.getByText('The end date is before the start date')).toBeDefined()
      else expect(screen.queryByText('The end date is before the start date')).toBeNull()
    },
  },
})

describe('export dialog from a filtered worklist', () => {
  it("starts from the worklist's kind, status and dates, which stay editable", async () => {
    const actor = createActor(exportMachine, { input: { companyId: 3 } }).start()
    render(
      inApp(
        <ExportView actor={actor} filters={FILTERED} Form={ExportForm} />,
        testActors({ session: createActor(sessionMachine) }),
      ),
    )
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }))
    expect(field('Documents').value).toBe('expense')
    expect(field('Status').value).toBe('failed')
    expect(field('From').value).toBe('2026-01-01')
    expect(field('To').value).toBe('2026-03-31')
    await user.selectOptions(field('Status'), '')
    expect(actor.getSnapshot().context.status).toBe('')
  })
})
