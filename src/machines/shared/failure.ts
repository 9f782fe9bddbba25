/** What a machine keeps of a failed call, whatever threw it (the API client's errors or anything else). */
import { contractMessages, type MessageCode, messageCode } from '../../../contract'

/**
 * Why a call failed, as a code the views show in the active language: the contract's code of the
 * server's (or the API client's) message, or `unexpected` for a message the contract does not know.
 */
type FailureCode = MessageCode | 'unexpected'

/** Why something failed, as views show it (`failureText`): a code with its values; `message`, the
 * text as it came, shown only when the code is `unexpected`. */
export type Reason = { code: FailureCode; values?: Record<string, string | number>; message: string }

/** The reason a text gives: its contract code, or `unexpected` (the text is then shown as it came). */
export const reasonOf = (message: string): Reason => ({ code: messageCode(message) ?? 'unexpected', message })

/**
 * What the machine knows of a failed call: its reason, the status, and `detail` (the server's,
 * when a string; shown instead of the message for an `unexpected` failure).
 */
export type CallFailure = Reason & { status: number; detail?: string }

/** A thrown value as a `CallFailure`: status 500 and `unknownError` when it carries no message. */
export const toFailure = (error: unknown): CallFailure => {
  const e = error as { status?: unknown; message?: unknown; detail?: unknown } | null
  const message = typeof e?.message === 'string' && e.message ? e.message : contractMessages.unknownError
  const detail = typeof e?.detail === 'string' && e.detail ? e.detail : undefined
  return {
    status: typeof e?.status === 'number' ? e.status : 500,
    // A detail in words says more than the message it comes with.
    code: messageCode(detail ?? message) ?? 'unexpected',
    message,
    ...(detail ? { detail } : {}),
  }
}

/** The failure an actor's error event carries, read in a named action (typed with the machine's own events). */
export const failureOf = (event: unknown): CallFailure => toFailure((event as { error?: unknown }).error)

/** `notify` params after a failed call: the notice and, as `message` picks it, the call's message. */
export const failedCallNotice =
  <TNotice extends string>(
    notice: TNotice,
    message: (failure: CallFailure) => string | undefined = (failure) => failure.message,
  ) =>
  ({ event }: { event: { error: unknown } }) => ({ notice, message: message(toFailure(event.error)) })
