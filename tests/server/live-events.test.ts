/**
 * Live updates (`GET /api/events`): a company's members hear of its documents being added, changing
 * status, corrected, confirmed and deleted, fed by LISTEN/NOTIFY; nothing reaches another company's members, a
 * foreign company answers 404, a bearer token works like the cookie, and a comment keeps the stream
 * open. Real PGlite (or PostgreSQL with TEST_DATABASE_URL), the app's own middleware and workers.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LiveEvent } from '../../contract/live-events.ts'
import { userCompanies } from '../../server/db/schema.ts'
import { extractDocument } from '../../server/services/extraction/index.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import {
  corpusFile,
  createPipelineApp,
  insertCompany,
  memberOf,
  multipart,
  waitFor,
} from './documents-support.ts'
import { jsonBody } from './helpers.ts'
import { patchJson } from './review-support.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let companyA: number
let companyB: number
let owner: Awaited<ReturnType<typeof memberOf>>
let stranger: Awaited<ReturnType<typeof memberOf>>

/** An open event stream: its events' data in order, its comments, and a way to wait for more. */
type Stream = {
  events: LiveEvent[]
  comments: string[]
  /** The server ended the stream. */
  ended: boolean
  next(count?: number, timeoutMs?: number): Promise<LiveEvent[]>
  close(): Promise<void>
}

async function readStream(response: Response): Promise<Stream> {
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const stream: Stream = {
    events: [],
    comments: [],
    ended: false,
    async next(count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      while (stream.events.length < count && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50))
      return stream.events.slice(0, count)
    },
    close: () => reader.cancel(),
  }
  let buffer = ''
  let opened: () => void = () => {}
  const open = new Promise<void>((resolve) => {
    opened = resolve
  })
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
      if (done) {
        stream.ended = true
        return
      }
      buffer += value
      let end = buffer.indexOf('\n\n')
      while (end >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) stream.comments.push(line.slice(1).trim())
          if (line.startsWith('data: ')) stream.events.push(JSON.parse(line.slice(6)))
        }
        opened()
        end = buffer.indexOf('\n\n')
      }
    }
  })()
  await open
  return stream
}

const events = (who: { jar: typeof owner.jar }, companyId: number) =>
  who.jar.request(ctx.app, `/api/events?company_id=${companyId}`)

async function upload(companyId = companyA, who = owner): Promise<number> {
  const res = await who.jar.request(
    ctx.app,
    '/api/documents/upload',
    multipart(
      { documentType: 'invoice', company_id: String(companyId) },
      { name: 'f.pdf', data: await corpusFile('0016-facture.pdf') },
    ),
  )
  expect(res.status).toBe(201)
  return (await res.json()).id
}

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-live-'))
  ctx = await createPipelineApp(database.db, root, { env: { EVENTS_HEARTBEAT_SECONDS: '1' } })
  companyA = (await insertCompany(database.db)).id
  companyB = (await insertCompany(database.db)).id
  owner = await memberOf(database.db, ctx.app, companyA)
  stranger = await memberOf(database.db, ctx.app, companyB)
  await ctx.startWorkers(extractDocument)
})

afterAll(async () => {
  await ctx?.close()
  await database?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

describe('live events', () => {
  it('answers 404 for a company the user does not belong to, 401 without a session', async () => {
    const foreign = await events(stranger, companyA)
    expect(foreign.status).toBe(404)
    expect((await ctx.app.request(`/api/events?company_id=${companyA}`)).status).toBe(401)
    expect((await events(owner, 2_147_483_647)).status).toBe(404)
  })

  it("tells the owner a processed upload was added then finished, and another company's member nothing", async () => {
    const mine = await readStream(await events(owner, companyA))
    const theirs = await readStream(await events(stranger, companyB))
    const id = await upload()
    const [added, finished] = await mine.next(2, 30_000)
    expect(added).toEqual({ type: 'document.added', document_id: id, status: 'PROCESSING' })
    expect(finished).toEqual({ type: 'document.status', document_id: id, status: 'COMPLETED' })
    // The other company's stream is open and alive (its keep-alive comes) but carries no event.
    await waitFor(async () => theirs.comments.includes('keep-alive'))
    expect(theirs.events).toEqual([])
    await mine.close()
    await theirs.close()
  })

  it('sends a correction and a deletion, to a bearer token as to the cookie', async () => {
    const created = await owner.jar.request(ctx.app, '/api/settings/api-tokens', jsonBody({ name: 'Live' }))
    expect(created.status).toBe(201)
    const { token } = (await created.json()) as { token: string }
    const id = await upload()
    const viaToken = await readStream(
      await ctx.app.request(`/api/events?company_id=${companyA}`, {
        headers: { Authorization: `Bearer ${token}` },
      }),
    )
    // Wait for the processing to finish (its event may have come before the stream opened).
    const status = () =>
      owner.jar.request(ctx.app, `/api/api/document/invoice/${id}/status?company_id=${companyA}`)
    await waitFor(async () => (await (await status()).json()).status !== 'PROCESSING')
    const corrected = await owner.jar.request(
      ctx.app,
      `/api/invoices/${id}?company_id=${companyA}`,
      patchJson({ invoice_number: 'LIVE-1' }),
    )
    expect(corrected.status).toBe(200)
    const deleted = await owner.jar.request(ctx.app, `/api/documents/${id}?company_id=${companyA}`, {
      method: 'DELETE',
    })
    expect(deleted.status).toBe(200)
    const seen = (await viaToken.next(10, 3000)).filter((e) => e.document_id === id)
    expect(seen.slice(-2)).toEqual([
      { type: 'document.corrected', document_id: id, status: expect.stringMatching(/^(COMPLETED|FAILED)$/) },
      { type: 'document.deleted', document_id: id, status: null },
    ])
    await viaToken.close()
  })

  it('sends a confirmation, with the status it kept', async () => {
    const id = await upload()
    const status = () =>
      owner.jar.request(ctx.app, `/api/api/document/invoice/${id}/status?company_id=${companyA}`)
    await waitFor(async () => (await (await status()).json()).status !== 'PROCESSING')
    const stream = await readStream(await events(owner, companyA))
    const confirmed = await owner.jar.request(ctx.app, `/api/invoices/${id}/confirm?company_id=${companyA}`, {
      method: 'POST',
    })
    expect(confirmed.status).toBe(200)
    const { status: kept } = (await confirmed.json()) as { status: string }
    await waitFor(async () => stream.events.some((e) => e.document_id === id))
    expect(stream.events.filter((e) => e.document_id === id)).toEqual([
      { type: 'document.confirmed', document_id: id, status: kept },
    ])
    await stream.close()
  })

  it('ends the open streams and refuses new ones when the process stops', async () => {
    const stopping = await createPipelineApp(database.db, join(root, 'stopping'))
    const { app } = stopping
    try {
      const who = await memberOf(database.db, app, companyA)
      const stream = await readStream(await who.jar.request(app, `/api/events?company_id=${companyA}`))
      app.closeStreams()
      await waitFor(async () => stream.ended, 5000)
      expect((await who.jar.request(app, `/api/events?company_id=${companyA}`)).status).toBe(503)
    } finally {
      await stopping.close()
    }
  })

  it('ends the stream of a member removed from the company at the next keep-alive', async () => {
    const leaving = await memberOf(database.db, ctx.app, companyA)
    const stream = await readStream(await events(leaving, companyA))
    await database.db.delete(userCompanies).where(eq(userCompanies.userId, leaving.user.id))
    await waitFor(async () => stream.ended, 5000)
    await upload()
    await new Promise((r) => setTimeout(r, 500))
    expect(stream.events).toEqual([])
  })
})
