/**
 * The embedded database runs in a worker thread behind PGlite's interface: errors keep their
 * SQLSTATE, a transaction's statements are not mixed with other callers', notifications reach
 * the main thread, and a closed database refuses queries. Always on PGlite (what it is about).
 */
import { messages } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type DatabaseHandle, embeddedClient, openPglite } from '../../server/db/client.ts'

let handle: DatabaseHandle

beforeAll(async () => {
  handle = await openPglite()
  await handle.db.execute(sql`create table t (id int primary key, label text not null)`)
})
afterAll(async () => {
  await handle?.close()
})

const causeOf = (error: unknown): unknown => {
  let e = error
  while (e && !(e instanceof messages.DatabaseError)) e = (e as { cause?: unknown }).cause
  return e
}

describe('embedded database thread', () => {
  it('answers queries with typed rows, from the drizzle layer and the client alike', async () => {
    const { rows } = (await handle.db.execute(
      sql`select 1::int as n, now() as at, ${'x'}::text as s, array[1,2]::int[] as a`,
    )) as unknown as { rows: { n: number; at: Date; s: string; a: number[] }[] }
    // drizzle's own parsers (timestamps kept as text for its column mappers) apply on this side.
    expect(rows[0]).toMatchObject({ n: 1, s: 'x', a: [1, 2] })
    expect(typeof rows[0]!.at).toBe('string')
    const client = embeddedClient(handle.db)!
    const direct = await client.query<{ v: string; at: Date }>('select $1::text as v, now() as at', ['y'])
    expect(direct.rows[0]!.v).toBe('y')
    expect(direct.rows[0]!.at).toBeInstanceOf(Date)
  })

  it('keeps the SQLSTATE and constraint of a failed statement, and goes on after it', async () => {
    await handle.db.execute(sql`insert into t values (1, 'one')`)
    const error = await handle.db.execute(sql`insert into t values (1, 'again')`).catch((e) => e)
    const cause = causeOf(error) as InstanceType<typeof messages.DatabaseError>
    expect(cause).toBeInstanceOf(messages.DatabaseError)
    expect(cause.code).toBe('23505')
    expect(cause.constraint).toBe('t_pkey')
    const syntax = await handle.db.execute(sql.raw('selec 1')).catch((e) => e)
    expect((causeOf(syntax) as { code?: string }).code).toBe('42601')
    const { rows } = (await handle.db.execute(sql`select label from t where id = 1`)) as unknown as {
      rows: { label: string }[]
    }
    expect(rows).toEqual([{ label: 'one' }])
  })

  it('runs a transaction alone: a concurrent statement is neither inside it nor rolled back with it', async () => {
    let release!: () => void
    const holding = new Promise<void>((r) => {
      release = r
    })
    let inserted!: () => void
    const insertedInside = new Promise<void>((r) => {
      inserted = r
    })
    const tx = handle.db
      .transaction(async (t) => {
        await t.execute(sql`insert into t values (2, 'in the transaction')`)
        inserted()
        await holding
        throw new Error('roll back')
      })
      .catch((e: Error) => e.message)
    // Issued while the transaction is open: it must wait for the end of the transaction.
    await insertedInside
    const outside = handle.db.execute(sql`insert into t values (3, 'outside')`)
    release()
    expect(await tx).toBe('roll back')
    await outside
    const { rows } = (await handle.db.execute(
      sql`select id from t where id in (2, 3) order by id`,
    )) as unknown as { rows: { id: number }[] }
    expect(rows).toEqual([{ id: 3 }])
  })

  it('delivers notifications to listeners on the main thread, once committed', async () => {
    const client = embeddedClient(handle.db)!
    const received: string[] = []
    const unlisten = await client.listen('thread_test', (payload) => received.push(payload))
    await handle.db.transaction(async (t) => {
      await t.execute(sql`select pg_notify('thread_test', 'hello')`)
      expect(received).toEqual([])
    })
    await vi.waitFor(() => expect(received).toEqual(['hello']))
    await unlisten()
    await handle.db.execute(sql`select pg_notify('thread_test', 'unheard')`)
    await handle.db.execute(sql`select 1`)
    expect(received).toEqual(['hello'])
  })

  it('refuses queries once closed', async () => {
    const other = await openPglite()
    await other.close()
    await expect(other.db.execute(sql`select 1`)).rejects.toThrow()
  })
})
