import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema.ts'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { createCookieJar, createTestApp, insertUser, jsonBody } from './helpers.ts'

let database: TestDatabase
let ctx: Awaited<ReturnType<typeof createTestApp>>
beforeAll(async () => {
  database = await createTestDatabase()
  ctx = await createTestApp(database.db)
})
afterAll(async () => {
  await ctx?.cleanup()
  await database?.close()
})

async function signedIn() {
  const user = await insertUser(database.db)
  const jar = createCookieJar()
  await jar.request(ctx.app, '/api/auth/login', jsonBody({ email: user.email, password: user.password }))
  return { user, jar }
}

const put = (body: unknown): RequestInit => ({ ...jsonBody(body), method: 'PUT' })

describe('/api/settings/me', () => {
  it('answers 401 to anonymous GET and PUT', async () => {
    expect((await ctx.app.request('/api/settings/me')).status).toBe(401)
    const res = await ctx.app.request('/api/settings/me', put({ language: 'fr' }))
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: 'Not authenticated' })
  })

  it('reads the default language, stores a new one and reads it back', async () => {
    const { user, jar } = await signedIn()
    expect(await (await jar.request(ctx.app, '/api/settings/me')).json()).toEqual({ language: 'en' })
    const res = await jar.request(ctx.app, '/api/settings/me', put({ language: 'fr' }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ language: 'fr' })
    expect(await (await jar.request(ctx.app, '/api/settings/me')).json()).toEqual({ language: 'fr' })
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id))
    expect(row?.language).toBe('fr')
  })

  it('rejects an unsupported language with a 400 naming the field', async () => {
    const { user, jar } = await signedIn()
    const res = await jar.request(ctx.app, '/api/settings/me', put({ language: 'de' }))
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.message).toBe('Invalid input')
    expect(body.detail).toEqual([{ field: 'language', message: expect.any(String) }])
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id))
    expect(row?.language).toBe('en')
  })
})
