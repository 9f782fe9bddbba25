/** The signed-in user's own settings. */
import { eq } from 'drizzle-orm'
import type { Language } from '../../../contract/index.ts'
import type { AppDatabase } from '../../db/client.ts'
import { users } from '../../db/schema.ts'

export async function setLanguage(db: AppDatabase, userId: number, language: Language, now: Date) {
  await db.update(users).set({ language, updatedAt: now }).where(eq(users.id, userId))
}

export async function setTwoFactorAdvice(db: AppDatabase, userId: number, advice: boolean, now: Date) {
  await db.update(users).set({ twoFactorAdvice: advice, updatedAt: now }).where(eq(users.id, userId))
}
