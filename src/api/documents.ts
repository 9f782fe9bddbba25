/**
 * Uploads and processing status. Uploads go through XMLHttpRequest (here only): the browser's
 * fetch reports no upload progress over HTTP/1.1 (ky's `onUploadProgress` needs request streams,
 * which Chromium only sends over HTTP/2), and the progress bars must be real. Errors keep the
 * specification's mapping (section 8): the body's message, else 'Upload failed'; the 60 s time-out
 * is 'Upload timed out. The file may still be processing.'; an abort rejects with `AbortError`, a
 * request that got no answer (offline, connection reset) with `NetworkError`. Each attempt of one
 * queued file carries the same `Idempotency-Key`: the server creates its document once.
 */
import * as v from 'valibot'
import { BulkStatus, contractMessages, type DocumentKind, ErrorBody, UploadAnswer } from '../../contract'
import { uploadNetworkError } from './code-chunks'
import { ApiError, type Http, UPLOAD_TIMEOUT_MS } from './http'

const UPLOAD_TIMEOUT_MESSAGE = contractMessages.uploadTimedOut

export type UploadRequest = {
  file: File
  documentType: DocumentKind
  category: string
  companyId: number
  /** Sent as `Idempotency-Key`: the same for every attempt of one queued file. */
  key?: string
}

export type UploadOptions = {
  signal?: AbortSignal
  /** Percent of the body sent, 0–100. */
  onProgress?: (percent: number) => void
  /** The whole body is sent; the server's answer is awaited. */
  onSent?: () => void
}

export type DocumentsConfig = {
  /** Called when an upload answers 401 (the session ended on the server). */
  onUnauthorized?: () => void
  timeoutMs?: number
  /** Tests give a fake; the browser's otherwise. */
  createXhr?: () => XMLHttpRequest
}

function formFor(request: UploadRequest): { path: string; body: FormData } {
  const body = new FormData()
  if (request.documentType === 'expense') {
    body.append('document_type', 'expense')
    body.append('company_id', String(request.companyId))
    body.append('file', request.file, request.file.name)
    return { path: 'expenses/upload', body }
  }
  body.append('documentType', request.documentType)
  body.append('category', request.category)
  body.append('company_id', String(request.companyId))
  body.append('file', request.file, request.file.name)
  return { path: 'documents/upload', body }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function createDocumentsApi(http: Http, config: DocumentsConfig = {}) {
  const timeout = config.timeoutMs ?? UPLOAD_TIMEOUT_MS
  const createXhr = config.createXhr ?? (() => new XMLHttpRequest())

  /** POST /documents/upload (invoices, documents) or /expenses/upload, with progress. */
  function upload(request: UploadRequest, options: UploadOptions = {}): Promise<UploadAnswer> {
    const { path, body } = formFor(request)
    return new Promise<UploadAnswer>((resolve, reject) => {
      if (options.signal?.aborted) return reject(new DOMException('Upload cancelled', 'AbortError'))
      const xhr = createXhr()
      const onAbort = () => xhr.abort()
      const cleanUp = () => options.signal?.removeEventListener('abort', onAbort)
      xhr.open('POST', http.url(path))
      xhr.withCredentials = true
      xhr.timeout = timeout
      xhr.setRequestHeader('accept', 'application/json')
      if (request.key) xhr.setRequestHeader('Idempotency-Key', request.key)
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) options.onProgress?.(Math.round((e.loaded / e.total) * 100))
      }
      xhr.upload.onload = () => {
        options.onProgress?.(100)
        options.onSent?.()
      }
      xhr.onload = () => {
        cleanUp()
        const data = parseJson(xhr.responseText)
        if (xhr.status >= 200 && xhr.status < 300) {
          const answer = v.safeParse(UploadAnswer, data)
          if (answer.success) resolve(answer.output)
          else reject(new ApiError(500, 'Unexpected response from server', data))
          return
        }
        if (xhr.status === 401) config.onUnauthorized?.()
        const message = v.is(ErrorBody, data) && data.message ? data.message : contractMessages.uploadFailed
        reject(new ApiError(xhr.status, message, data))
      }
      xhr.ontimeout = () => {
        cleanUp()
        reject(new ApiError(408, UPLOAD_TIMEOUT_MESSAGE))
      }
      xhr.onerror = () => {
        cleanUp()
        // No answer at all: the network (the queue waits for it and sends the file again).
        reject(uploadNetworkError())
      }
      xhr.onabort = () => {
        cleanUp()
        reject(new DOMException('Upload cancelled', 'AbortError'))
      }
      options.signal?.addEventListener('abort', onAbort)
      xhr.send(body)
    })
  }

  return {
    upload,
    /** GET /api/documents/status: every listed document of one kind, one request. */
    bulkStatus: async (kind: DocumentKind, companyId: number, documentIds: readonly number[]) => {
      const searchParams = new URLSearchParams({ kind, company_id: String(companyId) })
      for (const id of documentIds) searchParams.append('document_ids', String(id))
      const answer = await http.json('api/documents/status', BulkStatus, { searchParams })
      return Array.isArray(answer) ? answer : [answer]
    },
  }
}
