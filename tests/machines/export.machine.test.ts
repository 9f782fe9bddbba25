import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createExportsApi } from '../../src/api/exports'
import { type ExportContext, exportMachine } from '../../src/machines/dashboard/export.machine'
import { describeModel } from '../support/model'
import { exportEvents, exportKey } from './export-fixtures'

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
    actor.send({ type: 'export.open', language: 'fr' })
    expect(actor.getSnapshot().context.separator).toBe(';')
    actor.send({ type: 'export.cancel' })
    actor.send({ type: 'export.open', language: 'en' })
    expect(actor.getSnapshot().context.separator).toBe(',')
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
