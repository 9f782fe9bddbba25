import { createFileRoute, redirect } from '@tanstack/react-router'
import { TwoFactorView } from '../ui/views/two-factor-view'
import { settledSession } from './-guards'

/** Only reachable from a sign-in that asked for the second factor (credentials are in memory). */
export const Route = createFileRoute('/two-factor')({
  beforeLoad: async ({ context }) => {
    const session = await settledSession(context.session)
    if (session.matches('signedIn')) throw redirect({ to: '/' })
    if (!session.matches({ signedOut: 'secondFactor' })) {
      context.notify('invalidTwoFactorAttempt')
      throw redirect({ to: '/login' })
    }
  },
  component: TwoFactorView,
})
