/** Records, answers and event samples of the correction machine's tests (machine and view). */
import type { AnyMachineSnapshot, EventObject } from 'xstate'
import type { FinancialDocument } from '../../contract'
import type { HistoryChange } from '../../src/machines/details/document-edit.machine'
import { done, error, failedRecord, record } from './document-detail-fixtures'

export const editedRecord: FinancialDocument = {
  ...failedRecord,
  field_sources: { business_name: 'memory', invoice_number: 'user' },
}

/** The record after a saved correction: complete, its number corrected. */
export const correctedRecord: FinancialDocument = {
  ...record('COMPLETED'),
  invoice_number: 'FA-2026-0622',
  field_sources: { business_name: 'memory', invoice_number: 'user' },
}

/** The record once confirmed as it is: out of the review queue, who and when recorded. */
export const confirmedRecord: FinancialDocument = {
  ...editedRecord,
  needs_review: false,
  reviewed_at: '2026-07-18T10:00:00Z',
}

export const NEW_NUMBER = 'FA-2026-0622'
export const BAD_IBAN = 'FR76 3000 6000 0112 3456 7890 188'

export const historyEntry: HistoryChange = {
  field: 'invoice_number',
  old_value: null,
  new_value: 'FA-2026-0621',
  user: { id: 2, email: 'anna@example.com' },
  at: '2026-07-18T09:30:00Z',
}

const httpError = (status: number, message: string, detail?: unknown) =>
  Object.assign(new Error(message), { status, ...(detail === undefined ? {} : { detail }) })

export const refused = httpError(400, 'Invalid input', [{ field: 'invoice_number', message: 'Too long' }])
export const stillProcessing = httpError(409, 'Document is still processing')
export const offline = httpError(500, 'Failed to fetch')

export const editEvents = {
  'field.change': [
    { type: 'field.change', field: 'invoice_number', text: NEW_NUMBER },
    { type: 'field.change', field: 'invoice_number', text: 'FA-2026-0621' },
    { type: 'field.change', field: 'iban', text: BAD_IBAN },
  ],
  // Text picked on the page is read for the field (trimmed here), then handled as typed.
  'field.pick': [{ type: 'field.pick', field: 'invoice_number', text: ` ${NEW_NUMBER} ` }],
  // A second guess: saved at once from a resting form; the one the field holds changes nothing.
  'alternative.pick': [
    { type: 'alternative.pick', field: 'invoice_number', value: NEW_NUMBER },
    { type: 'alternative.pick', field: 'invoice_number', value: 'FA-2026-0621' },
    { type: 'alternative.pick', field: 'iban', value: 'FR76 3000 6000 0112 3456 7890 188' },
  ],
  'xstate.done.actor.saveCorrection': [
    done('saveCorrection', { document: correctedRecord, quality: { errors: [], warnings: [] } }),
  ],
  'xstate.error.actor.saveCorrection': [
    error('saveCorrection', refused),
    error('saveCorrection', stillProcessing),
    error('saveCorrection', offline),
  ],
  // The review: confirm as it is, "Save and next", J / K and the shortcuts.
  'edit.confirm': [{ type: 'edit.confirm' }],
  'review.next': [{ type: 'review.next' }],
  'document.step': [
    { type: 'document.step', direction: 1 },
    { type: 'document.step', direction: -1 },
  ],
  'help.open': [{ type: 'help.open' }],
  'help.close': [{ type: 'help.close' }],
  'xstate.done.actor.confirmDocument': [done('confirmDocument', confirmedRecord)],
  'xstate.error.actor.confirmDocument': [
    error('confirmDocument', stillProcessing),
    error('confirmDocument', offline),
  ],
  'xstate.done.actor.loadHistory': [done('loadHistory', [historyEntry])],
  'xstate.error.actor.loadHistory': [error('loadHistory', offline)],
}

type Ctx = {
  initial: Record<string, string>
  values: Record<string, string>
  errors: Record<string, unknown>
}

/** What makes two correction states different for the graph: which fields changed or are wrong. */
export const editKey = (c: unknown) => {
  const ctx = c as Ctx
  return {
    changed: Object.keys(ctx.values)
      .filter((f) => ctx.values[f] !== ctx.initial[f])
      .sort(),
    errors: Object.keys(ctx.errors).sort(),
  }
}

const HISTORY_EVENTS = ['xstate.done.actor.loadHistory', 'xstate.error.actor.loadHistory', 'history.retry']

const HELP_EVENTS = ['help.open', 'help.close']

/**
 * Keeps the three regions from multiplying: the history settles while the form rests (viewing or
 * saved), the form moves once the history has settled and while the shortcuts are closed, and the
 * shortcuts open and close over the untouched form; `history.reload` is the machine's own.
 */
export const editAllowed = (s: AnyMachineSnapshot, e: EventObject) => {
  if (e.type === 'history.reload') return false
  if (HELP_EVENTS.includes(e.type))
    return (
      s.matches({ open: { form: 'viewing', history: 'loaded' } }) && editKey(s.context).changed.length === 0
    )
  if (s.matches({ open: { help: 'open' } })) return false
  if (HISTORY_EVENTS.includes(e.type))
    return s.matches({ open: { form: 'viewing' } }) || s.matches({ open: { form: 'saved' } })
  return !s.matches({ open: { history: 'loading' } }) || e.type.startsWith('xstate.')
}
