/**
 * Multipart uploads, streamed: busboy reads the raw request, the file goes through a hashing /
 * magic-byte inspecting pass straight into the storage. Nothing holds the file in memory, and
 * nothing is left in the storage when the upload fails.
 */
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import type { Context } from 'hono'
import { contractMessages } from '../../../contract/index.ts'
import { HttpError } from '../../http/errors.ts'
import type { FileStorage } from '../storage/index.ts'
import { type SniffedType, type StoredFile, storeFile } from './ingest.ts'

export interface ReceivedUpload {
  fields: Record<string, string>
  file: StoredFile | null
}

export interface ReceiveOptions {
  storage: FileStorage
  maxBytes: number
  /** Called before the file is stored when `company_id` came before it: refuse early. */
  authorize: (fields: Record<string, string>) => Promise<void>
  /** Called on the first bytes with the fields known so far: throw 415 to refuse early. */
  checkType: (sniffed: SniffedType, fields: Record<string, string>) => void
}

function requestStream(c: Context): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  if (incoming && !incoming.readableEnded) return incoming
  const body = c.req.raw.body
  if (!body)
    throw new HttpError(400, contractMessages.invalidInput, [
      { field: 'file', message: 'A file is required' },
    ])
  return Readable.fromWeb(body as unknown as WebReadableStream)
}

/**
 * Parses the multipart body. Resolves once the whole request is read and the file (if any) is
 * in the storage; the caller owns the stored file from then on (and deletes it if it fails).
 */
export function receiveUpload(c: Context, options: ReceiveOptions): Promise<ReceivedUpload> {
  const { storage, maxBytes } = options
  const contentType = c.req.header('content-type') ?? ''
  if (!contentType.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.reject(new HttpError(400, 'Expected a multipart/form-data body'))
  }
  const source = requestStream(c)
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // One byte over the limit reaches `storeFile`, which refuses it.
        limits: { fileSize: maxBytes + 1, files: 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
        // Browsers send `filename="…"` as raw UTF-8; busboy's default reads header parameters
        // as latin1 (`été` → `Ã©tÃ©`). Invalid UTF-8 bytes become U+FFFD; an RFC 5987
        // `filename*=charset''…` keeps its own charset (and wins over `filename`).
        defParamCharset: 'utf8',
      })
    } catch {
      reject(new HttpError(400, 'Invalid multipart body'))
      return
    }
    const fields: Record<string, string> = {}
    let filePromise: Promise<StoredFile> | null = null
    // The file part on its way to the storage: destroyed on failure, so the storage's write
    // stream closes its handle and removes its partial file instead of waiting for bytes that
    // will never come (a dropped connection, a refusal).
    let fileStream: Readable | null = null
    let done = false
    const fail = (error: unknown) => {
      if (done) return
      done = true
      source.unpipe(parser)
      fileStream?.destroy(error instanceof Error ? error : new Error(String(error)))
      // Read (and drop) the rest of the request so the client gets the answer.
      source.resume()
      // A file already stored by the time the failure comes must not stay.
      filePromise?.then((f) => storage.delete(f.key)).catch(() => {})
      reject(error)
    }

    const store = async (stream: Readable, filename: string): Promise<StoredFile> => {
      if (fields.company_id !== undefined) await options.authorize(fields)
      // The request may have failed (or been cut) while authorising: store nothing then.
      if (done) throw new HttpError(400, 'Upload interrupted')
      return storeFile(storage, stream, {
        maxBytes,
        name: filename,
        checkType: (sniffed) => options.checkType(sniffed, fields),
      })
    }

    parser.on('field', (name, value) => {
      fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || filePromise) {
        stream.resume()
        return
      }
      fileStream = stream
      // `fail` may destroy it with an error before `store` listens (a refused company_id): an
      // 'error' event without a listener is an uncaught exception, which ends the process.
      stream.on('error', () => {})
      // Browsers escape `"`, CR and LF in `filename="…"` as %22, %0D, %0A (HTML's
      // multipart/form-data encoding; `%` itself is not escaped, so a name holding a literal
      // `%22` reads as a quote: the ambiguity is the browsers'). CR/LF go like any control.
      const filename = (info.filename ?? '').replace(/%22/g, '"').replace(/%0[ad]/gi, '')
      filePromise = store(stream, filename)
      filePromise.catch(fail)
    })
    parser.on('partsLimit', () => fail(new HttpError(400, 'Too many parts')))
    parser.on('fieldsLimit', () => fail(new HttpError(400, 'Too many fields')))
    parser.on('error', () => fail(new HttpError(400, 'Invalid multipart body')))
    parser.on('close', () => {
      if (done) return
      const settle = filePromise ?? Promise.resolve(null)
      settle.then(
        (file) => {
          if (done) {
            if (file) storage.delete(file.key).catch(() => {})
            return
          }
          done = true
          resolve({ fields, file })
        },
        (error) => fail(error),
      )
    })
    const interrupted = () => fail(new HttpError(400, 'Upload interrupted'))
    source.on('error', interrupted)
    // A client that drops the connection mid-body: Node emits 'aborted' and 'close' on the
    // request (an 'error' only in some versions); the body will never end.
    source.on('aborted', interrupted)
    source.on('close', () => {
      if (!source.readableEnded && !(source as IncomingMessage).complete) interrupted()
    })
    source.pipe(parser)
  })
}
