/** The activity log rows a call reads or writes, each within the company the request acts for. */
import { and, eq } from 'drizzle-orm'
import type * as v from 'valibot'
import type { LogStatus, NewLog } from '../../../contract/log-calls.ts'
import type { AppDatabase } from '../../db/client.ts'
import { logs } from '../../db/schema.ts'
import { HttpError } from '../../http/errors.ts'
import { dashboardRows } from '../../services/documents/lifecycle/document-service.ts'

export const LOG_NOT_FOUND = 'Log not found'

/** The company's row (with its document's status); 404 otherwise. */
export async function findLog(db: AppDatabase, companyId: number, id: number) {
  const [row] = await dashboardRows(db).where(and(eq(logs.id, id), eq(logs.companyId, companyId)))
  if (!row) throw new HttpError(404, LOG_NOT_FOUND)
  return row
}

export async function insertLog(
  db: AppDatabase,
  entry: { companyId: number; userId: number; now: Date },
  input: v.InferOutput<typeof NewLog>,
) {
  const [row] = await db
    .insert(logs)
    .values({
      companyId: entry.companyId,
      userId: entry.userId,
      name: input.name,
      type: input.type,
      status: input.status,
      category: input.category,
      createdAt: entry.now,
      updatedAt: entry.now,
    })
    .returning()
  return row!
}

export async function updateLogStatus(
  db: AppDatabase,
  id: number,
  status: v.InferOutput<typeof LogStatus>,
  now: Date,
) {
  const [row] = await db.update(logs).set({ status, updatedAt: now }).where(eq(logs.id, id)).returning()
  return row!
}

export async function deleteLog(db: AppDatabase, id: number) {
  await db.delete(logs).where(eq(logs.id, id))
}
