/**
 * The client's file name, as browsers send it (raw UTF-8 in `filename="…"`) and as RFC 5987
 * (`filename*=UTF-8''…`), is stored exactly and read back exactly from the log list, the
 * document, invoice and expense details and the download's Content-Disposition. Bytes that are
 * not UTF-8 are replaced (U+FFFD), control and bidirectional-override characters removed.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../support/db.ts'
import { createPipelineApp, insertCompany, memberOf } from './documents-support.ts'

let database: TestDatabase
let root: string
let ctx: Awaited<ReturnType<typeof createPipelineApp>>
let member: Awaited<ReturnType<typeof memberOf>>
let companyId: number

beforeAll(async () => {
  database = await createTestDatabase()
  root = await mkdtemp(join(tmpdir(), 'docflow-file-names-'))
  ctx = await createPipelineApp(database.db, root)
  companyId = (await insertCompany(database.db)).id
  member = await memberOf(database.db, ctx.app, companyId)
})
afterAll(async () => {
  await ctx?.close()
  await database?.close()
  await rm(root, { recursive: true, force: true })
})

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

type Kind = 'invoice' | 'expense' | 'document'

/**
 * A multipart body built byte by byte: `filenameParams` goes into the file part's
 * Content-Disposition as given (raw UTF-8, percent-encoded, or any bytes at all).
 */
function upload(kind: Kind, filenameParams: Buffer) {
  const boundary = '----docflow-names'
  const fields: Record<string, string> =
    kind === 'expense'
      ? { document_type: 'expense', company_id: String(companyId) }
      : kind === 'invoice'
        ? { documentType: 'invoice', company_id: String(companyId) }
        : { documentType: 'document', category: 'Administration', company_id: String(companyId) }
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    )
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; `),
    filenameParams,
    Buffer.from('\r\nContent-Type: application/pdf\r\n\r\n'),
    PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  )
  return member.jar.request(ctx.app, kind === 'expense' ? '/api/expenses/upload' : '/api/documents/upload', {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat(parts),
  })
}

/** What browsers send: the name's UTF-8 bytes between quotes (`"` as %22, as they do). */
const rawUtf8 = (name: string) => Buffer.from(`filename="${name.replaceAll('"', '%22')}"`, 'utf8')
/** RFC 5987, with an ASCII `filename` next to it as RFC 6266 advises (the extended one wins). */
const rfc5987 = (name: string) =>
  Buffer.from(
    `filename="fallback.pdf"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
    'latin1',
  )

/** The name as every read answers it; all of them must agree. */
async function namesOf(kind: Kind, id: number) {
  const q = `company_id=${companyId}`
  const get = async (path: string) => {
    const res = await member.jar.request(ctx.app, `${path}${path.includes('?') ? '&' : '?'}${q}`)
    expect(res.status, path).toBe(200)
    return res
  }
  const logs = (await (await get('/api/logs?limit=1000')).json()) as { document_id: number; name: string }[]
  const detail =
    kind === 'document'
      ? await (await get(`/api/documents/${id}`)).json()
      : await (await get(`/api/${kind}s/${id}`)).json()
  const download = await get(
    kind === 'document' ? `/api/documents/${id}/download` : `/api/${kind}s/${kind}/${id}/download`,
  )
  await download.arrayBuffer()
  const disposition = download.headers.get('content-disposition') ?? ''
  const extended = /filename\*=UTF-8''([^;\s]+)/.exec(disposition)?.[1]
  return {
    log: logs.find((l) => l.document_id === id)?.name,
    detail: detail.original_name as string,
    detailFileName: detail.original_file_name as string,
    download: extended === undefined ? undefined : decodeURIComponent(extended),
    fallback: /filename="([^"]*)"/.exec(disposition)?.[1],
  }
}

const NAMES = ['facture_été.pdf', 'reçu_café.pdf', 'Rechnung_München.pdf']

describe('accented file names', () => {
  for (const name of NAMES) {
    for (const [way, params] of [
      ['raw UTF-8', rawUtf8],
      ['RFC 5987', rfc5987],
    ] as const) {
      it(`keeps ${name} sent as ${way}, for an invoice, an expense and a document`, async () => {
        for (const kind of ['invoice', 'expense', 'document'] as const) {
          const res = await upload(kind, params(name))
          expect(res.status, kind).toBe(201)
          const { id } = await res.json()
          const names = await namesOf(kind, id)
          expect(names, kind).toEqual({
            log: name,
            detail: name,
            detailFileName: name,
            download: name,
            // The ASCII fallback for clients without RFC 6266: accents dropped.
            fallback: name.normalize('NFD').replace(/\p{M}/gu, ''),
          })
        }
      })
    }
  }

  it('encodes quotes, parentheses and spaces in the download header', async () => {
    const name = `l'été "final" (copie) 100%.pdf`
    const res = await upload('document', rawUtf8(name))
    const { id } = await res.json()
    const names = await namesOf('document', id)
    expect(names.detail).toBe(name)
    expect(names.download).toBe(name)
    expect(names.fallback).toBe("l'ete _final_ (copie) 100_.pdf")
  })

  it('reads the %22, %0D and %0A browsers send for ", CR and LF', async () => {
    const res = await upload('document', Buffer.from('filename="devis %22final%22%0D%0A.pdf"'))
    expect((await namesOf('document', (await res.json()).id)).detail).toBe('devis "final".pdf')
  })

  it('replaces bytes that are not UTF-8 and keeps the rest readable', async () => {
    // A latin1 client: é as the single byte E9.
    const params = Buffer.concat([
      Buffer.from('filename="facture_'),
      Buffer.from([0xe9]),
      Buffer.from('t'),
      Buffer.from([0xe9]),
      Buffer.from('.pdf"'),
    ])
    const res = await upload('document', params)
    expect(res.status).toBe(201)
    const names = await namesOf('document', (await res.json()).id)
    expect(names.detail).toBe('facture_\uFFFDt\uFFFD.pdf')
    expect(names.log).toBe(names.detail)
    expect(names.download).toBe(names.detail)
  })
})

describe('control and bidirectional characters in file names', () => {
  it('removes the right-to-left override: inv\\u202Efdp.exe is stored as invfdp.exe', async () => {
    const res = await upload('document', rawUtf8('inv\u202Efdp.exe'))
    expect(res.status).toBe(201)
    const names = await namesOf('document', (await res.json()).id)
    expect(names).toMatchObject({ log: 'invfdp.exe', detail: 'invfdp.exe', download: 'invfdp.exe' })
  })

  it('removes every bidi control and C0/C1 control, sent raw or RFC 5987', async () => {
    const bidi = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C'
    // C1 controls as valid UTF-8 (U+0085, U+009F), line separators, a BOM; C0 controls and
    // DEL only percent-encoded (raw, busboy refuses the part as malformed: no file, 400).
    const name = `a${bidi}b\u0085\u009Fcd\u2028\u2029\uFEFFe.pdf`
    for (const params of [rawUtf8(name), rfc5987(`${name.replace('cd', 'c\u007Fd')}\u0001\t`)]) {
      const res = await upload('document', params)
      expect(res.status).toBe(201)
      const names = await namesOf('document', (await res.json()).id)
      expect(names).toMatchObject({ log: 'abcde.pdf', detail: 'abcde.pdf', download: 'abcde.pdf' })
    }
  })

  it('keeps letters of any script, joiners and emoji', async () => {
    const name = 'عقد_2026 ‌سند 👩‍💼.pdf'
    const res = await upload('document', rawUtf8(name))
    const names = await namesOf('document', (await res.json()).id)
    expect(names.detail).toBe(name)
    expect(names.download).toBe(name)
  })
})
