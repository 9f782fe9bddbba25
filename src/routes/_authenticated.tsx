import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { CheckingAuthView } from '../ui/views/status-views'
import { settledSession } from './-guards'

/** Every route below needs a signed-in user; the visitor's page is remembered for after sign-in. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context, location }) => {
    const session = await settledSession(context.session)
    if (!session.matches('signedIn')) throw redirect({ to: '/login', search: { redirect: location.href } })
    await context.loadScreens()
  },
  pendingMs: 0,
  pendingComponent: CheckingAuthView,
  component: Outlet,
})
