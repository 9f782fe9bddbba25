/**
 * A user's corrections of an invoice or expense: PATCH with the changed fields only (the answer is
 * the re-checked record with its status, errors and warnings), the confirmation of a record as it
 * is, and the history of changes.
 */
import * as v from 'valibot'
import { FINANCIAL_KIND, FinancialDocument, type FinancialKind, QualityDetail } from '../../contract'
import type { Correction } from '../../contract/document-fields'
import type { Http } from './http'

/** `PATCH /{kind}s/{id}`: the updated record, its findings as code lists (maybe JSON-encoded) and their texts. */
const CorrectionAnswer = v.object({
  ...FinancialDocument.entries,
  errors: v.optional(v.unknown()),
  warnings: v.optional(v.unknown()),
  details: v.optional(
    v.looseObject({
      errors: v.optional(v.array(QualityDetail)),
      warnings: v.optional(v.array(QualityDetail)),
    }),
  ),
})

const HistoryValue = v.nullish(v.union([v.string(), v.number(), v.boolean()]))

/** One recorded change, newest first in the list. */
const HistoryEntry = v.object({
  field: v.string(),
  old_value: HistoryValue,
  new_value: HistoryValue,
  user: v.nullish(v.object({ id: v.number(), email: v.string() })),
  at: v.string(),
})

/** A code list, or its JSON encoding; anything else is an empty list. */
function codes(value: unknown): string[] {
  let list = value
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value)
    } catch {
      return []
    }
  }
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []
}

export function createCorrectionsApi(http: Http) {
  const base = (kind: FinancialKind) => FINANCIAL_KIND[kind].plural
  const scoped = (companyId: number) => ({ searchParams: { company_id: companyId } })
  return {
    /** PATCH /{kind}s/{id}: 400 with `{field, message}` details for a value refused, 409 while processing. */
    correct: async (kind: FinancialKind, id: number, companyId: number, changes: Correction) => {
      const answer = await http.json(`${base(kind)}/${id}`, CorrectionAnswer, {
        method: 'patch',
        json: changes,
        ...scoped(companyId),
      })
      const { errors, warnings, details, ...document } = answer
      const texts = (codes: string[], found: QualityDetail[] | undefined) =>
        codes.map((code) => {
          const messages = found?.find((d) => d.code === code)?.messages
          return messages ? { code, messages } : { code }
        })
      return {
        document,
        quality: {
          errors: texts(codes(errors), details?.errors),
          warnings: texts(codes(warnings), details?.warnings),
        },
      }
    },
    /** POST /{kind}s/{id}/confirm: the record is right as it is (who and when recorded); 409 while processing. */
    confirm: (kind: FinancialKind, id: number, companyId: number) =>
      http.json(`${base(kind)}/${id}/confirm`, FinancialDocument, { method: 'post', ...scoped(companyId) }),
    /** GET /{kind}s/{id}/history: every change, newest first. */
    history: (kind: FinancialKind, id: number, companyId: number) =>
      http.json(`${base(kind)}/${id}/history`, v.array(HistoryEntry), scoped(companyId)),
  }
}
