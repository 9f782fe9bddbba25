/**
 * An e-mailed link (account activation, password reset) as its page opens it: `waiting` for the
 * link's token and e-mail, then `complete` (the page shows its form; the server may still refuse
 * a used or expired token) or `incomplete` (a notice, then the login page).
 */
import { setup } from 'xstate'

/** What an e-mailed link carries: its token and e-mail, '' when the link lacks one. */
export type EmailLink = { token: string; email: string }

export type EmailLinkEvent = { type: 'link.open' } & EmailLink

export const emailLinkMachine = setup({
  types: { events: {} as EmailLinkEvent },
  actions: {
    notifyIncomplete: () => {},
    /** Leaves the link's page for the login, in its place (Back does not open the link again). */
    navigateToLogin: () => {},
  },
  guards: {
    hasTokenAndEmail: ({ event }) => event.token !== '' && event.email !== '',
  },
}).createMachine({
  id: 'emailLink',
  initial: 'waiting',
  states: {
    waiting: {
      on: {
        'link.open': [
          { guard: 'hasTokenAndEmail', target: 'complete' },
          {
            target: 'incomplete',
            actions: ['notifyIncomplete', 'navigateToLogin'],
            description: 'The token or the e-mail is missing: nothing to send, say so and go to the login.',
          },
        ],
      },
    },
    complete: { type: 'final' },
    incomplete: { type: 'final' },
  },
})
