/** The detail calls (record, quality data, original file, delete) with a fake `fetch` at the boundary. */
import { describe, expect, it } from 'vitest'
import { createDetailsApi, parseList } from '../../src/api/details'
import { ApiError, createHttp } from '../../src/api/http'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function api(respond: (request: Request) => Response) {
  const seen: { method: string; url: string }[] = []
  const fetchFake = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init)
    seen.push({ method: request.method, url: request.url })
    return respond(request)
  }) as typeof fetch
  return { details: createDetailsApi(createHttp({ baseUrl: 'http://app.test/api', fetch: fetchFake })), seen }
}

describe('detail calls', () => {
  it('parses quality lists that arrive as JSON strings, and turns unparsable ones into []', () => {
    expect(parseList(['a', 'b'])).toEqual(['a', 'b'])
    expect(parseList('["duplicate"]')).toEqual(['duplicate'])
    expect(parseList('not json')).toEqual([])
    expect(parseList(undefined)).toEqual([])
  })

  it('reads quality data with each code’s texts in both languages', async () => {
    const { details, seen } = api(() =>
      json(200, {
        invoice_id: 7,
        errors: '["missing_total"]',
        warnings: ['duplicate'],
        details: {
          errors: [],
          warnings: [
            { code: 'duplicate', message: 'x', messages: { en: 'Possible duplicate', fr: 'Doublon' } },
          ],
        },
      }),
    )
    expect(await details.quality('invoice', 7, 3)).toEqual({
      errors: [{ code: 'missing_total' }],
      warnings: [{ code: 'duplicate', messages: { en: 'Possible duplicate', fr: 'Doublon' } }],
    })
    expect(seen[0]?.url).toBe('http://app.test/api/invoices/7/quality-data?company_id=3')
  })

  it('downloads the original as a Blob, and says why it could not', async () => {
    const ok = api(
      () => new Response('%PDF', { status: 200, headers: { 'content-type': 'application/pdf' } }),
    )
    const blob = await ok.details.download('expense', 9, 3)
    expect(blob.type).toBe('application/pdf')
    expect(ok.seen[0]?.url).toBe('http://app.test/api/expenses/expense/9/download?company_id=3')
    const missing = api(() => new Response('', { status: 404, statusText: 'Not Found' }))
    const error = await missing.details.download('invoice', 9, 3).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe('Failed to fetch PDF: 404 Not Found')
  })

  it('gets and deletes a record scoped by company', async () => {
    const { details, seen } = api((request) =>
      request.method === 'DELETE'
        ? json(200, { message: 'Deleted' })
        : json(200, { id: 7, status: 'FAILED' }),
    )
    expect(await details.get('expense', 7, 3)).toMatchObject({ id: 7, status: 'FAILED' })
    await details.remove('invoice', 7, 3)
    expect(seen).toEqual([
      { method: 'GET', url: 'http://app.test/api/expenses/7?company_id=3' },
      { method: 'DELETE', url: 'http://app.test/api/invoices/7?company_id=3' },
    ])
  })
})
