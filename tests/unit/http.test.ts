/** The API client's mapping of failed answers to errors, with a fake `fetch` at the boundary. */
import * as v from 'valibot'
import { describe, expect, it, vi } from 'vitest'
import { ApiError, createHttp } from '../../src/api/http'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function client(respond: (request: Request) => Promise<Response> | Response, extra = {}) {
  const seen: { url: string; credentials: RequestCredentials; body: string }[] = []
  const fetchFake = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init)
    seen.push({ url: request.url, credentials: request.credentials, body: await request.clone().text() })
    return respond(request)
  }) as typeof fetch
  return { http: createHttp({ baseUrl: 'http://app.test/api', fetch: fetchFake, ...extra }), seen }
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('createHttp', () => {
  it('sends JSON with cookies to the configured base URL and validates the answer', async () => {
    const { http, seen } = client(() => json(200, { message: 'ok' }))
    const answer = await http.json('auth/login', v.object({ message: v.string() }), {
      method: 'post',
      json: { email: 'a@b.c' },
    })
    expect(answer).toEqual({ message: 'ok' })
    expect(seen[0]?.url).toBe('http://app.test/api/auth/login')
    expect(seen[0]?.credentials).toBe('include')
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ email: 'a@b.c' })
  })

  it("uses the body's message and keeps status and body", async () => {
    const { http } = client(() =>
      json(409, { message: 'E-mail already in use', detail: [{ field: 'email' }] }),
    )
    const error = await failure(http.send('admin/user'))
    expect(error.status).toBe(409)
    expect(error.message).toBe('E-mail already in use')
    expect(error.detail).toEqual([{ field: 'email' }])
  })

  it("falls back to 'Request failed', and to 'Upload failed' for uploads", async () => {
    const { http } = client(() => new Response('<html>bad gateway</html>', { status: 502 }))
    const request = await failure(http.send('documents'))
    expect([request.status, request.message]).toEqual([502, 'Request failed'])
    const upload = await failure(http.upload('documents/upload', new FormData(), v.unknown()))
    expect([upload.status, upload.message]).toEqual([502, 'Upload failed'])
  })

  it("turns a time-out into status 408 'Request timeout'", async () => {
    const { http } = client(
      (request) =>
        new Promise((_, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
      {
        timeouts: { request: 20, upload: 20 },
      },
    )
    const error = await failure(http.send('slow'))
    expect([error.status, error.message]).toEqual([408, 'Request timeout'])
  })

  it('turns a network failure into status 500 with its message', async () => {
    const { http } = client(() => {
      throw new TypeError('Failed to fetch')
    })
    const error = await failure(http.send('anything'))
    expect([error.status, error.message]).toEqual([500, 'Failed to fetch'])
  })

  it('refuses an answer that does not match the schema', async () => {
    const { http } = client(() => json(200, { requires_2fa: 'yes' }))
    const error = await failure(http.json('auth/login', v.object({ requires_2fa: v.boolean() })))
    expect([error.status, error.message]).toEqual([500, 'Unexpected response from server'])
  })

  it('reports a 401 outside /auth/ as an ended session, but not a failed sign-in', async () => {
    const onUnauthorized = vi.fn()
    const { http } = client(() => json(401, { message: 'Not authenticated' }), { onUnauthorized })
    await failure(http.send('auth/login'))
    expect(onUnauthorized).not.toHaveBeenCalled()
    await failure(http.send('settings/me'))
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })
})
