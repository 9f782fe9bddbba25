/**
 * Correcting an invoice's or expense's fields in its detail dialog. Two regions: `form` —
 * viewing → editing (each field's text kept, validated as typed, dirty while it differs from the
 * record) → saving (only the changed fields) → saved / failed (the server refused a value, the
 * document is still processing, or the call failed); closing with unsaved changes asks to discard —
 * and `history`, the record's changes, reloaded after each save.
 */
import * as v from 'valibot'
import { and, assign, not, raise, setup } from 'xstate'
import { FieldIssue, type FinancialDocument, type FinancialKind, type QualityData } from '../../../contract'
import {
  type Correction,
  correctionBody,
  EDITABLE_FIELDS,
  type EditableField,
  type FieldErrorCode,
  fieldText,
  fieldTextFromPage,
  parseField,
} from '../../../contract/document-fields'
import { toFailure } from '../shared/failure'
import { promisePlaceholder } from '../shared/placeholder'

type Language = 'en' | 'fr'

export type DocumentEditInput = {
  kind: FinancialKind
  id: number
  companyId: number
  document: FinancialDocument
  language: Language
}

/** A field's problem: a code of the form's own checks, or the server's message for a refused value. */
export type FieldError = { code: FieldErrorCode } | { message: string }

/** Why the last save failed: a value refused (400), still processing (409), or the call itself. */
export type SaveFailure = { reason: 'invalid' | 'conflict' | 'network'; message: string }

/** One recorded change (`GET …/{id}/history`), newest first. */
export type HistoryChange = {
  field: string
  old_value?: string | number | boolean | null | undefined
  new_value?: string | number | boolean | null | undefined
  user?: { id: number; email: string } | null | undefined
  at: string
}

export type SavedCorrection = { document: FinancialDocument; quality: QualityData }

type Texts = Partial<Record<EditableField, string>>

export type DocumentEditContext = Omit<DocumentEditInput, 'document'> & {
  document: FinancialDocument
  /** The inputs' texts as the record gives them. */
  initial: Texts
  /** The inputs' texts as the user typed them. */
  values: Texts
  errors: Partial<Record<EditableField, FieldError>>
  failure: SaveFailure | null
  history: HistoryChange[]
}

export type DocumentEditEvent =
  | { type: 'field.change'; field: EditableField; text: string }
  /** Text picked on the page for a field: read for the field's type, then typed in. */
  | { type: 'field.pick'; field: EditableField; text: string }
  /** One of the engine's second guesses for a field: saved at once when nothing else is being edited. */
  | { type: 'alternative.pick'; field: EditableField; value: unknown }
  | { type: 'edit.save' }
  | { type: 'edit.reset' }
  | { type: 'dialog.close' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' }
  | { type: 'history.retry' }
  | { type: 'history.reload' }

export type DocumentEditNoticeParams =
  | { notice: 'saved'; kind: FinancialKind; status: string }
  | { notice: 'saveFailed'; kind: FinancialKind; failure: SaveFailure }

type Scope = { kind: FinancialKind; id: number; companyId: number }

type AlternativeEvent = Extract<DocumentEditEvent, { type: 'alternative.pick' }>

/** An alternative's value as the field's input shows it. */
const alternativeText = (c: Pick<DocumentEditContext, 'language'>, e: AlternativeEvent) => ({
  field: e.field,
  text: fieldText(e.field, e.value, c.language),
})

const applyAlternative = {
  type: 'applyChange',
  params: ({ context, event }: { context: DocumentEditContext; event: AlternativeEvent }) =>
    alternativeText(context, event),
} as const

const textsOf = (kind: FinancialKind, document: FinancialDocument, language: Language): Texts =>
  Object.fromEntries(
    EDITABLE_FIELDS[kind].map((f) => [f, fieldText(f, document[f as keyof FinancialDocument], language)]),
  )

/** The fields whose text differs from the record's, with their texts. */
const changedFields = (c: Pick<DocumentEditContext, 'initial' | 'values'>): Texts =>
  Object.fromEntries(
    (Object.entries(c.values) as [EditableField, string][]).filter(([f, text]) => text !== c.initial[f]),
  )

const isDirtyContext = (c: Pick<DocumentEditContext, 'initial' | 'values'>) =>
  Object.keys(changedFields(c)).length > 0

const scopeOf = (c: DocumentEditContext): Scope => ({ kind: c.kind, id: c.id, companyId: c.companyId })

const statusOf = (error: unknown) => toFailure(error).status

/** The 400 answer's `{field, message}` details of the fields this form shows. */
function refusedFields(error: unknown, kind: FinancialKind): Partial<Record<EditableField, FieldError>> {
  const detail = (error as { detail?: unknown } | null)?.detail
  if (!v.is(v.array(FieldIssue), detail)) return {}
  const fields = EDITABLE_FIELDS[kind] as readonly string[]
  return Object.fromEntries(
    detail.filter((i) => fields.includes(i.field)).map((i) => [i.field, { message: i.message }]),
  )
}

const failureOf = (error: unknown, reason: SaveFailure['reason']): SaveFailure => ({
  reason,
  message: toFailure(error).message,
})

export const documentEditMachine = setup({
  types: {} as { context: DocumentEditContext; events: DocumentEditEvent; input: DocumentEditInput },
  actors: {
    saveCorrection: promisePlaceholder<SavedCorrection, Scope & { changes: Correction }>('saveCorrection'),
    loadHistory: promisePlaceholder<HistoryChange[], Scope>('loadHistory'),
  },
  actions: {
    notify: (_, _params: DocumentEditNoticeParams) => {},
    /** The document changed on the server: the dialog that holds these fields takes the saved record. */
    announceSaved: (_, _params: SavedCorrection) => {},
    close: () => {},
    applyChange: assign(({ context }, p: { field: EditableField; text: string }) => {
      const parsed = parseField(p.field, p.text, context.language)
      const errors = { ...context.errors }
      if (parsed.ok) delete errors[p.field]
      else errors[p.field] = { code: parsed.error }
      return { values: { ...context.values, [p.field]: p.text }, errors, failure: null }
    }),
    discardChanges: assign(({ context }) => ({ values: context.initial, errors: {}, failure: null })),
  },
  guards: {
    isDirty: ({ context }) => isDirtyContext(context),
    isValid: ({ context }) => Object.keys(context.errors).length === 0,
    /** An alternative that reads as the field's type and differs from what the field holds. */
    isNewValidAlternative: ({ context, event }) => {
      if (event.type !== 'alternative.pick') return false
      const { field, text } = alternativeText(context, event)
      return text !== context.values[field] && parseField(field, text, context.language).ok
    },
    isRefused: ({ event }) => statusOf((event as { error?: unknown }).error) === 400,
    isProcessing: ({ event }) => statusOf((event as { error?: unknown }).error) === 409,
  },
}).createMachine({
  id: 'documentEdit',
  context: ({ input }) => {
    const initial = textsOf(input.kind, input.document, input.language)
    return { ...input, initial, values: initial, errors: {}, failure: null, history: [] }
  },
  initial: 'open',
  states: {
    open: {
      type: 'parallel',
      on: {
        'field.pick': {
          description: 'Text picked on the page: read for the field type, then handled as typed.',
          actions: raise(({ context, event }) => ({
            type: 'field.change' as const,
            field: event.field,
            text: fieldTextFromPage(event.field, event.text, context.language),
          })),
        },
      },
      states: {
        form: {
          initial: 'viewing',
          states: {
            viewing: {
              on: {
                'field.change': {
                  target: 'editing',
                  actions: { type: 'applyChange', params: ({ event }) => event },
                },
                'dialog.close': '#documentEdit.closed',
                'alternative.pick': {
                  guard: 'isNewValidAlternative',
                  target: 'saving',
                  description: 'A second guess picked with nothing else changed: saved at once.',
                  actions: applyAlternative,
                },
              },
            },
            editing: {
              tags: ['dirty'],
              always: {
                guard: not('isDirty'),
                target: 'viewing',
                description: 'Typed back to what the record holds: nothing left to save.',
              },
              on: {
                'field.change': { actions: { type: 'applyChange', params: ({ event }) => event } },
                'alternative.pick': {
                  guard: 'isNewValidAlternative',
                  description: 'Other changes wait to be saved: the second guess joins them.',
                  actions: applyAlternative,
                },
                'edit.save': { guard: 'isValid', target: 'saving' },
                'edit.reset': { target: 'viewing', actions: 'discardChanges' },
                'dialog.close': {
                  target: 'confirmingDiscard',
                  description: 'Escape or close with unsaved changes asks first.',
                },
              },
            },
            confirmingDiscard: {
              tags: ['dirty'],
              on: {
                'discard.confirm': { target: '#documentEdit.closed', actions: 'discardChanges' },
                'discard.cancel': 'editing',
              },
            },
            saving: {
              tags: ['dirty', 'busy'],
              invoke: {
                id: 'saveCorrection',
                src: 'saveCorrection',
                input: ({ context }) => ({
                  ...scopeOf(context),
                  changes: correctionBody(changedFields(context), context.language) ?? {},
                }),
                onDone: {
                  target: 'saved',
                  actions: [
                    assign(({ context, event }) => {
                      const initial = textsOf(context.kind, event.output.document, context.language)
                      return {
                        document: event.output.document,
                        initial,
                        values: initial,
                        errors: {},
                        failure: null,
                      }
                    }),
                    {
                      type: 'notify',
                      params: ({ context, event }) => ({
                        notice: 'saved' as const,
                        kind: context.kind,
                        status: event.output.document.status,
                      }),
                    },
                    { type: 'announceSaved', params: ({ event }) => event.output },
                    raise({ type: 'history.reload' }),
                  ],
                },
                onError: [
                  {
                    guard: 'isRefused',
                    target: 'failed',
                    description: 'A value the server refuses (400): its message shows on the field.',
                    actions: assign(({ context, event }) => ({
                      errors: { ...context.errors, ...refusedFields(event.error, context.kind) },
                      failure: failureOf(event.error, 'invalid'),
                    })),
                  },
                  {
                    guard: 'isProcessing',
                    target: 'failed',
                    description: 'The document is still queued or processing (409).',
                    actions: assign({ failure: ({ event }) => failureOf(event.error, 'conflict') }),
                  },
                  {
                    target: 'failed',
                    actions: assign({ failure: ({ event }) => failureOf(event.error, 'network') }),
                  },
                ],
              },
            },
            saved: {
              on: {
                'field.change': {
                  target: 'editing',
                  actions: { type: 'applyChange', params: ({ event }) => event },
                },
                'dialog.close': '#documentEdit.closed',
                'alternative.pick': {
                  guard: 'isNewValidAlternative',
                  target: 'saving',
                  description: 'A second guess picked with nothing else changed: saved at once.',
                  actions: applyAlternative,
                },
              },
            },
            failed: {
              tags: ['dirty'],
              entry: {
                type: 'notify',
                params: ({ context }) => ({
                  notice: 'saveFailed' as const,
                  kind: context.kind,
                  failure: context.failure!,
                }),
              },
              on: {
                'field.change': {
                  target: 'editing',
                  actions: { type: 'applyChange', params: ({ event }) => event },
                },
                'edit.save': { guard: and(['isDirty', 'isValid']), target: 'saving' },
                'edit.reset': { target: 'viewing', actions: 'discardChanges' },
                'dialog.close': 'confirmingDiscard',
              },
            },
          },
        },
        history: {
          initial: 'loading',
          on: { 'history.reload': '.loading' },
          states: {
            loading: {
              invoke: {
                id: 'loadHistory',
                src: 'loadHistory',
                input: ({ context }) => scopeOf(context),
                onDone: { target: 'loaded', actions: assign({ history: ({ event }) => event.output }) },
                onError: 'failed',
              },
            },
            loaded: {},
            failed: { on: { 'history.retry': 'loading' } },
          },
        },
      },
    },
    closed: { type: 'final', entry: 'close' },
  },
})

export type DocumentEditMachine = typeof documentEditMachine
