/** Route guards read the session actor from the router context; the session decides. */
import * as v from 'valibot'
import { waitFor } from 'xstate'
import type { SessionActor } from '../machines/session/session.implementations'

/** Resolves once the initial session check is over (signed in or out). */
export function settledSession(session: SessionActor) {
  return waitFor(session, (s) => !s.hasTag('checking'), { timeout: Number.POSITIVE_INFINITY })
}

/** Only same-origin paths are followed after sign-in (no open redirects, no loop to /login). */
export function safeRedirect(target: string | undefined): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/'
  if (target === '/login' || target.startsWith('/login?')) return '/'
  return target
}

/** The search of an e-mailed link (account activation, password reset): a token and an e-mail. */
export const EmailLinkSearch = v.object({ token: v.optional(v.string()), email: v.optional(v.string()) })
type EmailLink = v.InferOutput<typeof EmailLinkSearch>

/** The link's token and e-mail as the page's form takes them. */
export const emailLinkProps = (search: EmailLink) => ({
  email: search.email ?? '',
  token: search.token ?? '',
})
