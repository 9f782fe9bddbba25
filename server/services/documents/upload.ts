/**
 * Multipart uploads, streamed: busboy reads the raw request, the file goes through a hashing /
 * magic-byte inspecting pass straight into the storage. Nothing holds the file in memory, and
 * nothing is left in the storage when the upload fails.
 */
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { Readable, Transform } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import type { Context } from 'hono'
import { contractMessages } from '../../../src/contract/index.ts'
import { HttpError } from '../../http/errors.ts'
import type { FileStorage } from '../storage/index.ts'

export type SniffedType = 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/gif' | null

/** The file type by its first bytes; the client's name and MIME type are never trusted. */
export function sniff(head: Uint8Array): SniffedType {
  const b = Buffer.from(head)
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf'
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg'
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png'
  if (/^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif'
  return null
}

interface StoredUpload {
  key: string
  size: number
  sha256: string
  sniffed: SniffedType
  originalName: string
}

export interface ReceivedUpload {
  fields: Record<string, string>
  file: StoredUpload | null
}

export interface ReceiveOptions {
  storage: FileStorage
  maxBytes: number
  /** Called before the file is stored when `company_id` came before it: refuse early. */
  authorize: (fields: Record<string, string>) => Promise<void>
  /** Called on the first bytes with the fields known so far: throw 415 to refuse early. */
  checkType: (sniffed: SniffedType, fields: Record<string, string>) => void
}

const HEAD_BYTES = 8

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

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `File too large (limit ${Math.round(maxBytes / 1024 / 1024)} MB)`)
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
        limits: { fileSize: maxBytes, files: 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
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
    let filePromise: Promise<StoredUpload> | null = null
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

    const store = async (stream: Readable, filename: string): Promise<StoredUpload> => {
      if (fields.company_id !== undefined) await options.authorize(fields)
      // The request may have failed (or been cut) while authorising: store nothing then.
      if (done) throw new HttpError(400, 'Upload interrupted')
      const key = storage.newKey()
      const hash = createHash('sha256')
      let head = Buffer.alloc(0)
      let sniffed: SniffedType = null
      let checked = false
      const check = () => {
        checked = true
        sniffed = sniff(head)
        options.checkType(sniffed, fields)
      }
      const inspect = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk)
          if (!checked) {
            head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES)
            if (head.length >= HEAD_BYTES) {
              try {
                check()
              } catch (error) {
                callback(error as Error)
                return
              }
            }
          }
          callback(null, chunk)
        },
        flush(callback) {
          try {
            if (!checked) check()
            callback()
          } catch (error) {
            callback(error as Error)
          }
        },
      })
      // Data may flow (and be refused) before the storage attaches its own listeners.
      inspect.on('error', () => {})
      stream.on('limit', () => inspect.destroy(tooLarge(maxBytes)))
      stream.on('error', (error) => inspect.destroy(error))
      // A destroyed file part (see `fail`) emits no error when destroyed without one.
      stream.on('close', () => {
        if (!stream.readableEnded) inspect.destroy(new HttpError(400, 'Upload interrupted'))
      })
      stream.pipe(inspect)
      const { size } = await storage.put(key, inspect)
      if ((stream as Readable & { truncated?: boolean }).truncated) {
        await storage.delete(key)
        throw tooLarge(maxBytes)
      }
      return { key, size, sha256: hash.digest('hex'), sniffed, originalName: cleanName(filename) }
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

/**
 * Characters removed from a file name: C0/C1 controls and DEL (`\p{Cc}`), the bidirectional
 * embedding/override/isolate marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C: with
 * them `inv\u202Efdp.exe` shows as `invexe.pdf`), line/paragraph separators (U+2028, U+2029)
 * and the byte-order mark (U+FEFF). Zero-width joiners stay: some scripts and emoji need them.
 */
const UNSAFE_IN_NAME = /[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u2028\u2029\uFEFF]/gu

/**
 * The client's file name, for display only: no path, none of the characters above, NFC (a macOS
 * name in decomposed form is found by the same search), at most 255 characters.
 */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const clean = base.normalize('NFC').replace(UNSAFE_IN_NAME, '').trim()
  // Cut by code points, never inside a surrogate pair.
  return Array.from(clean || 'file')
    .slice(0, 255)
    .join('')
}
