/**
 * The invoice and expense detail reads: the record, its quality data, the original
 * file, and the delete. Quality lists may arrive as JSON-encoded strings (parsed; unparsable → []);
 * a failed download is 'Failed to fetch PDF: {status} {text}'.
 */
import {
  FINANCIAL_KIND,
  FinancialDocument,
  type FinancialKind,
  PageWords,
  QualityAnswer,
  type QualityData,
  type QualityDetail,
  type QualityItem,
  UploadAnswer,
} from '../../contract'
import { createCorrectionsApi } from './corrections'
import { ApiError, type Http } from './http'

/** A list of strings, or its JSON encoding; anything else is an empty list. */
export function parseList(value: unknown): string[] {
  let list: unknown = value
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value)
    } catch {
      return []
    }
  }
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []
}

function withTexts(codes: string[], details: QualityDetail[] | undefined): QualityItem[] {
  return codes.map((code) => {
    const messages = details?.find((d) => d.code === code)?.messages
    return messages ? { code, messages } : { code }
  })
}

export function createDetailsApi(http: Http) {
  const base = (kind: FinancialKind) => FINANCIAL_KIND[kind].plural
  const scoped = (companyId: number) => ({ searchParams: { company_id: companyId } })
  return {
    ...createCorrectionsApi(http),
    /** GET /invoices/{id} or /expenses/{id}. */
    get: (kind: FinancialKind, id: number, companyId: number) =>
      http.json(`${base(kind)}/${id}`, FinancialDocument, scoped(companyId)),
    /** GET /{kind}s/{id}/quality-data: errors and warnings. */
    quality: async (kind: FinancialKind, id: number, companyId: number): Promise<QualityData> => {
      const answer = await http.json(`${base(kind)}/${id}/quality-data`, QualityAnswer, scoped(companyId))
      return {
        errors: withTexts(parseList(answer.errors), answer.details?.errors),
        warnings: withTexts(parseList(answer.warnings), answer.details?.warnings),
      }
    },
    /** GET /{kind}s/{kind}/{id}/download: the original file (PDF, or an invoice's image). */
    download: async (kind: FinancialKind, id: number, companyId: number): Promise<Blob> => {
      const response = await http.raw(`${base(kind)}/${kind}/${id}/download`, {
        ...scoped(companyId),
        throwHttpErrors: false,
        headers: { accept: '*/*' },
      })
      if (!response.ok)
        throw new ApiError(response.status, `Failed to fetch PDF: ${response.status} ${response.statusText}`)
      return response.blob()
    },
    /**
     * GET /documents/{id}/pages/{n}/words: the words of a page (text layer or OCR) with their boxes;
     * null when the server has none for it (404: a page it never read, or a server without the call).
     */
    words: async (id: number, page: number, companyId: number): Promise<PageWords | null> => {
      try {
        return await http.json(`documents/${id}/pages/${page}/words`, PageWords, scoped(companyId))
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null
        throw error
      }
    },
    /** POST /{kind}s/{id}/reprocess: the record is queued to be read again (409 while it is read). */
    reprocess: (kind: FinancialKind, id: number, companyId: number) =>
      http.json(`${base(kind)}/${id}/reprocess`, UploadAnswer, { method: 'post', ...scoped(companyId) }),
    /** DELETE /{kind}s/{id}: the record, its log entry and its file. */
    remove: (kind: FinancialKind, id: number, companyId: number) =>
      http.send(`${base(kind)}/${id}`, { method: 'delete', ...scoped(companyId) }),
  }
}
export type DetailsApi = ReturnType<typeof createDetailsApi>
