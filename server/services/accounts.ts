/**
 * Activation and password reset by e-mail: issuing the tokens, sending the mails in the
 * user's language, and using a token to set a password. `sendInvitation` is the entry point
 * of the administration's invite call.
 */
import { eq } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Config } from '../config.ts'
import type { AppDatabase } from '../db/client.ts'
import { type UserRow, users } from '../db/schema.ts'
import { invitationMail, resetMail } from '../mail/templates.ts'
import type { Mailer } from './mail.ts'
import { hashPassword } from './passwords.ts'
import { endSessionsOfUser } from './sessions.ts'
import { consumeAccountToken, isAccountTokenUsable, issueAccountToken, latestUnusedToken } from './tokens.ts'
import { findUserByEmail } from './users.ts'

/** One reset mail per account per minute at most: a reset form is not a way to flood a mailbox. */
const RESET_MAIL_INTERVAL_MS = 60 * 1000

type InvitedUser = Pick<UserRow, 'id' | 'email' | 'name' | 'language'>

export interface AccountService {
  /** Issues a 72 h activation token (earlier ones stop working) and mails the /validate link. */
  sendInvitation(user: InvitedUser): Promise<void>
  /**
   * Starts a reset for an enabled account with this e-mail, in the background: the caller
   * answers at once, the same way whether or not the account exists.
   */
  requestPasswordReset(email: string): void
  /** Sets the password of an invited user from the activation token, and validates the account. */
  activate(input: { email: string; token: string; password: string }): Promise<boolean>
  /** Sets a new password from a reset token and ends every session of the user. */
  confirmReset(input: { email: string; token: string; password: string }): Promise<boolean>
  /** Resolves once background work (reset mails) started so far has finished. */
  settled(): Promise<void>
}

export function createAccountService(deps: {
  db: AppDatabase
  config: Pick<Config, 'publicUrl'>
  clock: () => Date
  mailer: Mailer
  logger: Logger
}): AccountService {
  const { db, config, clock, mailer, logger } = deps
  const inflight = new Set<Promise<void>>()

  const link = (path: string, token: string, email: string) =>
    `${config.publicUrl}${path}?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`

  async function sendReset(email: string): Promise<void> {
    const user = await findUserByEmail(db, email)
    if (!user?.enabled) return
    const now = clock()
    const last = await latestUnusedToken(db, user.id, 'reset')
    if (last && now.getTime() - last.getTime() < RESET_MAIL_INTERVAL_MS) {
      logger.info({ userId: user.id }, 'password reset mail skipped: one was sent less than a minute ago')
      return
    }
    const token = await issueAccountToken(db, user.id, 'reset', now)
    const url = link('/reset-password-confirm', token, user.email)
    await mailer.send({
      to: user.email,
      ...resetMail(user.language, { name: user.name, link: url }),
      link: url,
    })
    logger.info({ userId: user.id }, 'password reset mail sent')
  }

  /** Checks the token before the (deliberately slow) hash, then uses it and sets the password atomically. */
  async function setPasswordWithToken(
    purpose: 'activation' | 'reset',
    input: { email: string; token: string; password: string },
  ): Promise<boolean> {
    const user = await findUserByEmail(db, input.email)
    if (!user?.enabled) return false
    if (!(await isAccountTokenUsable(db, input.token, user.id, purpose, clock()))) return false
    const passwordHash = await hashPassword(input.password)
    const now = clock()
    return db.transaction(async (tx) => {
      if (!(await consumeAccountToken(tx, input.token, user.id, purpose, now))) return false
      // Either mail proves control of the mailbox, so a reset also validates an invited account.
      await tx
        .update(users)
        .set({ passwordHash, validated: true, updatedAt: now })
        .where(eq(users.id, user.id))
      await endSessionsOfUser(tx, user.id)
      return true
    })
  }

  return {
    async sendInvitation(user) {
      const token = await issueAccountToken(db, user.id, 'activation', clock())
      const url = link('/validate', token, user.email)
      await mailer.send({
        to: user.email,
        ...invitationMail(user.language, { name: user.name, link: url }),
        link: url,
      })
      logger.info({ userId: user.id }, 'invitation mail sent')
    },

    requestPasswordReset(email) {
      const task = sendReset(email)
        .catch((error: Error) => logger.error({ err: error }, 'password reset mail failed'))
        .finally(() => inflight.delete(task))
      inflight.add(task)
    },

    activate: (input) => setPasswordWithToken('activation', input),
    confirmReset: (input) => setPasswordWithToken('reset', input),

    async settled() {
      await Promise.all([...inflight])
    },
  }
}
