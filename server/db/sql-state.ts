/**
 * What PostgreSQL said when it refused a statement: the SQLSTATE and message found on the error
 * or its causes. node-postgres and PGlite both put the code on their error's `code`; drizzle 0.45
 * wraps it in a DrizzleQueryError (`cause`) whose own message holds the query and its parameters,
 * so only the database's message is kept.
 */
export function databaseError(error: unknown): { code: string; message: string } | null {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown }
    // Five characters, as SQLSTATEs are; Node's own codes (EPIPE, EPERM) are not one.
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^E[A-Z]{4}$/.test(code))
      return { code, message: typeof message === 'string' ? message : '' }
    current = (current as { cause?: unknown }).cause
  }
  return null
}

/**
 * Whether the same statement with the same values would be refused again: a data exception
 * (class 22: invalid byte sequence such as NUL, invalid input syntax, value too long, out of
 * range), an integrity constraint violation (23) or a program limit (54: an index row too large).
 * A lost connection, a deadlock or a full disk (08, 40, 53, 57…) may pass on another attempt.
 */
export const failsAgain = (code: string): boolean => /^(22|23|54)/.test(code)

/** Whether a unique index or constraint refused the statement (23505), on either driver. */
export const isUniqueViolation = (error: unknown): boolean => databaseError(error)?.code === '23505'
