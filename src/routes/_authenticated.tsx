import { createFileRoute, redirect } from '@tanstack/react-router'
import { AppShell } from '../ui/views/app-shell'
import { CheckingAuthView } from '../ui/views/status-views'
import { settledSession } from './-guards'

export const Route = createFileRoute('/_authenticated')({
  beforeLoad: async ({ context, location }) => {
    const session = await settledSession(context.session)
    if (!session.matches('signedIn')) throw redirect({ to: '/login', search: { redirect: location.href } })
  },
  pendingMs: 0,
  pendingComponent: CheckingAuthView,
  component: AppShell,
})
