import type { Logger } from 'pino'
import * as v from 'valibot'
import { Email, NewPassword } from '../../contract/index.ts'
import type { Config } from '../config.ts'
import type { AppDatabase } from '../db/client.ts'
import { users } from '../db/schema.ts'
import { hashPassword } from './passwords.ts'
import { createFirstAdmin } from './users.ts'

/**
 * With ADMIN_EMAIL and ADMIN_PASSWORD set and no user at all, creates the validated
 * SAAS_ADMIN 'Admin Admin'. Bad values stop the start-up with an error naming the variable.
 */
export async function ensureFirstAdmin(
  db: AppDatabase,
  config: Pick<Config, 'adminEmail' | 'adminPassword'>,
  logger: Logger,
): Promise<'created' | 'skipped'> {
  const { adminEmail, adminPassword } = config
  if (!adminEmail && !adminPassword) return 'skipped'
  if (!adminEmail || !adminPassword) {
    logger.warn('ADMIN_EMAIL and ADMIN_PASSWORD must both be set to create the first administrator; ignoring')
    return 'skipped'
  }
  const email = v.safeParse(Email, adminEmail)
  if (!email.success) throw new Error(`Invalid ADMIN_EMAIL: ${email.issues[0].message}`)
  const password = v.safeParse(NewPassword, adminPassword)
  if (!password.success) throw new Error(`Invalid ADMIN_PASSWORD: ${password.issues[0].message}`)

  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1)
  if (anyUser) return 'skipped'
  const outcome = await createFirstAdmin(
    db,
    {
      email: email.output,
      name: 'Admin',
      surname: 'Admin',
      passwordHash: await hashPassword(password.output),
    },
    'no-user',
  )
  if (outcome !== 'created') return 'skipped'
  logger.info({ email: email.output }, 'created the first administrator from ADMIN_EMAIL')
  return 'created'
}
