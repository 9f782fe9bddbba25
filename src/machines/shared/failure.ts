import { contractMessages } from '../../contract'
/** What a machine keeps of a failed call, whatever threw it (the API client's errors or anything else). */

/** What the machine knows of a failed call; views translate it. `detail`: the server's, when a string. */
export type CallFailure = { status: number; message: string; detail?: string }

/** A thrown value as a `CallFailure`: status 500 and a generic message when it carries none. */
export const toFailure = (error: unknown): CallFailure => {
  const e = error as { status?: unknown; message?: unknown; detail?: unknown } | null
  return {
    status: typeof e?.status === 'number' ? e.status : 500,
    message: typeof e?.message === 'string' && e.message ? e.message : contractMessages.unknownError,
    ...(typeof e?.detail === 'string' && e.detail ? { detail: e.detail } : {}),
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
