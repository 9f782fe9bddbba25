/** The password change: the new hash, and every other session of the user ended, in one transaction. */
import { eq } from 'drizzle-orm'
import type { AppDatabase } from '../../db/client.ts'
import { users } from '../../db/schema.ts'
import { endOtherSessionsOfUser } from '../../services/sessions.ts'

export async function replacePassword(
  db: AppDatabase,
  user: { id: number; sessionId: string },
  passwordHash: string,
  now: Date,
) {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id))
    await endOtherSessionsOfUser(tx, user.id, user.sessionId)
  })
}
