/**
 * The one HTTP client of the app. Everything that talks to the server goes through `createHttp`,
 * which turns every failure into an `ApiError` with the specification's messages (section 8):
 * the body's `message`, else 'Request failed' / 'Upload failed'; a time-out is 'Request timeout'
 * with status 408; anything else is status 500 with its message or 'Unknown error occurred'.
 */
import ky, { HTTPError, type KyInstance, type Options, TimeoutError } from 'ky'
import * as v from 'valibot'
import { contractMessages, ErrorBody } from '../../contract'

const REQUEST_TIMEOUT_MS = 30_000
export const UPLOAD_TIMEOUT_MS = 60_000

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message)
  }

  /** The `detail` of the contract's error body, when the server sent one. */
  get detail(): unknown {
    return v.is(ErrorBody, this.body) ? this.body.detail : undefined
  }
}

export type HttpConfig = {
  /** Base URL of the API, absolute or relative to the page (default `/api`). */
  baseUrl: string
  /** Called when a call outside `/auth/` answers 401: the session ended on the server. */
  onUnauthorized?: () => void
  fetch?: typeof fetch
  /** Overrides of the specification's time-outs (tests). */
  timeouts?: { request: number; upload: number }
}

type Kind = 'request' | 'upload'

async function toApiError(error: unknown, kind: Kind): Promise<ApiError> {
  if (error instanceof ApiError) return error
  if (error instanceof HTTPError) {
    const body: unknown = await error.response
      .clone()
      .json()
      .catch(() => undefined)
    const message = v.is(ErrorBody, body) && body.message ? body.message : null
    return new ApiError(
      error.response.status,
      message ?? (kind === 'upload' ? contractMessages.uploadFailed : contractMessages.requestFailed),
      body,
    )
  }
  if (error instanceof TimeoutError) return new ApiError(408, contractMessages.requestTimeout)
  const message = error instanceof Error && error.message ? error.message : contractMessages.unknownError
  return new ApiError(500, message)
}

export type Http = {
  /** JSON call whose answer is validated by `schema`. */
  json<S extends v.GenericSchema>(path: string, schema: S, options?: Options): Promise<v.InferOutput<S>>
  /** JSON call that also gives the answer's headers (pages say whether more follow in a header). */
  withHeaders<S extends v.GenericSchema>(
    path: string,
    schema: S,
    options?: Options,
  ): Promise<{ body: v.InferOutput<S>; headers: Headers }>
  /** Call whose answer body is ignored. */
  send(path: string, options?: Options): Promise<void>
  /** Raw response, for binary answers (images, PDFs). */
  raw(path: string, options?: Options): Promise<Response>
  /** The absolute or page-relative address of an API path (for `<img src>`, downloads). */
  url(path: string): string
  /** Multipart upload with the upload time-out and messages. */
  upload<S extends v.GenericSchema>(
    path: string,
    body: FormData,
    schema: S,
    options?: Options,
  ): Promise<v.InferOutput<S>>
}

function joinBase(baseUrl: string): string {
  return baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl
}

export function createHttp(config: HttpConfig): Http {
  const base = joinBase(config.baseUrl)
  const client: KyInstance = ky.create({
    credentials: 'include',
    timeout: config.timeouts?.request ?? REQUEST_TIMEOUT_MS,
    retry: 0,
    headers: { accept: 'application/json' },
    ...(config.fetch ? { fetch: config.fetch } : {}),
    hooks: {
      afterResponse: [
        (request, _options, response) => {
          if (response.status === 401 && !new URL(request.url).pathname.includes('/auth/'))
            config.onUnauthorized?.()
        },
      ],
    },
  })

  const url = (path: string) => `${base}/${path.replace(/^\//, '')}`

  async function call<T>(kind: Kind, run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      throw await toApiError(error, kind)
    }
  }

  function validate<S extends v.GenericSchema>(schema: S, data: unknown): v.InferOutput<S> {
    const result = v.safeParse(schema, data)
    if (!result.success) throw new ApiError(500, 'Unexpected response from server', data)
    return result.output
  }

  return {
    url,
    json: (path, schema, options) =>
      call('request', async () => validate(schema, await client(url(path), options).json())),
    withHeaders: (path, schema, options) =>
      call('request', async () => {
        const response = await client(url(path), options)
        return { body: validate(schema, await response.json()), headers: response.headers }
      }),
    send: (path, options) =>
      call('request', async () => {
        await client(url(path), options)
      }),
    raw: (path, options) => call('request', () => client(url(path), options)),
    upload: (path, body, schema, options) =>
      call('upload', async () =>
        validate(
          schema,
          await client
            .post(url(path), { timeout: config.timeouts?.upload ?? UPLOAD_TIMEOUT_MS, body, ...options })
            .json(),
        ),
      ),
  }
}
