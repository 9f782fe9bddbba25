import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createExportsApi } from '../../src/api/exports'
import { type ExportContext, exportMachine, exportPreset } from '../../src/machines/dashboard/export.machine'
import { NO_FILTERS } from '../../src/machines/dashboard/filters.machine'
import { describeModel } from '../support/model'
import { exportEvents, exportKey, FILTERED, TODAY } from './export-fixtures'

const ctx = (s: { context: unknown }) => s.context as ExportContext

describeModel('export machine', {
  machine: exportMachine,
  input: { companyId: 3 },
  actors: [],
  provide: (machine, _controls, record) =>
    machine.provide({
      actions: {
        download: (_, r) =>
          record(`download:${r.kind}:${r.companyId}:${r.separator}:${r.status}:${r.startDate}:${r.endDate}`),
        notify: (_, p) => record(`notify:${p.notice}:${p.kind}`),
      },
    }),
  events: exportEvents,
  contextKey: exportKey,
  limit: 300,
  states: {
    closed: (s, log) => {
      const c = ctx(s)
      if (log.at(-1)?.startsWith('notify:')) {
        expect(log.at(-1)).toBe(`notify:exportStarted:${c.kind}`)
        expect(log.at(-2)).toBe(`download:${c.kind}:3:${c.separator}:${c.status}:${c.startDate}:${c.endDate}`)
        expect(c.rangeError).toBeNull()
      }
    },
    open: (s) => {
      const c = ctx(s)
      // A range that ends before it starts cannot be exported.
      expect(s.can({ type: 'export.submit' })).toBe(c.rangeError === null)
      if (c.startDate > c.endDate && c.endDate) expect(c.rangeError).toBe('endBeforeStart')
    },
  },
})

describe('export, beyond the graph', () => {
  it('opens with the separator of the user language', () => {
    const actor = createActor(exportMachine, { input: { companyId: 3 } }).start()
    actor.send({ type: 'export.open', language: 'fr', filters: NO_FILTERS, today: TODAY })
    expect(actor.getSnapshot().context.separator).toBe(';')
    actor.send({ type: 'export.cancel' })
    actor.send({ type: 'export.open', language: 'en', filters: NO_FILTERS, today: TODAY })
    expect(actor.getSnapshot().context.separator).toBe(',')
  })

  it("opens with the worklist's filters, which the user can still change", () => {
    const actor = createActor(exportMachine, { input: { companyId: 3 } }).start()
    actor.send({ type: 'export.open', language: 'en', filters: FILTERED, today: TODAY })
    expect(actor.getSnapshot().context).toMatchObject({
      kind: 'expense',
      status: 'failed',
      startDate: '2026-01-01',
      endDate: '2026-03-31',
      rangeError: null,
    })
    actor.send({ type: 'status.select', status: '' })
    actor.send({ type: 'export.cancel' })
    // Each opening starts again from the filters in force.
    actor.send({ type: 'export.open', language: 'en', filters: NO_FILTERS, today: TODAY })
    expect(actor.getSnapshot().context).toMatchObject({ status: '', startDate: '', endDate: '' })
  })

  it("reads the worklist's date presets as days counted back from the user's day", () => {
    const preset = (date: (typeof FILTERED)['date'], status: (typeof FILTERED)['status'] = 'all') =>
      exportPreset({ ...NO_FILTERS, date, status }, TODAY)
    expect(preset('today')).toMatchObject({ startDate: TODAY, endDate: TODAY })
    expect(preset('yesterday')).toMatchObject({ startDate: '2026-07-17', endDate: '2026-07-17' })
    expect(preset('lastWeek')).toMatchObject({ startDate: '2026-07-11', endDate: TODAY })
    expect(preset('lastMonth')).toMatchObject({ startDate: '2026-06-18', endDate: TODAY })
    expect(exportPreset({ ...NO_FILTERS, date: 'lastWeek' }, '2026-03-03').startDate).toBe('2026-02-24')
    // The export call knows no pending status, and no kind for all documents: every one is exported.
    expect(preset('all', 'pending')).toEqual({ status: '', startDate: '', endDate: '', rangeError: null })
    expect(exportPreset({ ...FILTERED, from: '2026-04-01' }, TODAY).rangeError).toBe('endBeforeStart')
  })

  it('asks the export call with the chosen filters only', () => {
    const api = createExportsApi({ url: (path) => `/api/${path}` })
    expect(api.url({ kind: 'expense', companyId: 3, separator: ';' })).toBe(
      '/api/expenses/export?company_id=3&format=csv&separator=%3B',
    )
    expect(
      api.url({
        kind: 'invoice',
        companyId: 3,
        separator: ',',
        status: 'failed',
        startDate: '2026-01-01',
        endDate: '2026-06-30',
      }),
    ).toBe(
      '/api/invoices/export?company_id=3&format=csv&separator=%2C&status=FAILED&start_date=2026-01-01&end_date=2026-06-30',
    )
  })
})
