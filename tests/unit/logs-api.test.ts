/** The dashboard rows' client: filters sent as the server reads them, with a fake `fetch` at the boundary. */
import { expect, it } from 'vitest'
import { createHttp } from '../../src/api/http'
import { createLogsApi } from '../../src/api/logs'

it('sends the status filter as the rows carry it (lower case), with the other filters', async () => {
  const urls: URL[] = []
  const fetchFake = (async (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(new URL((input instanceof Request ? input : new Request(input, init)).url))
    return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } })
  }) as typeof fetch
  const logs = createLogsApi(createHttp({ baseUrl: 'http://app.test/api', fetch: fetchFake }))
  await logs.list(3, { status: 'failed', elementType: 'Invoice', sortBy: 'date', sortOrder: 'desc' })
  const params = Object.fromEntries(urls[0]!.searchParams)
  expect(params).toEqual({
    company_id: '3',
    status: 'failed',
    element_type: 'Invoice',
    sort_by: 'date',
    sort_order: 'desc',
  })
})
