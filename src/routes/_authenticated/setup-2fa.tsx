import { createFileRoute } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import * as v from 'valibot'
import { useAppActors } from '../../ui/app-context'
import { SetupTwoFactorView } from '../../ui/views/setup-two-factor-view'
import { safeRedirect } from '../-guards'

export const Route = createFileRoute('/_authenticated/setup-2fa')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  beforeLoad: ({ context }) => context.loadAccount(),
  component: SetupTwoFactorRoute,
})

function SetupTwoFactorRoute() {
  const { redirect } = Route.useSearch()
  const { session } = useAppActors()
  const email = useSelector(session, (s) => s.context.user?.email ?? '')
  return <SetupTwoFactorView email={email} redirectTo={safeRedirect(redirect)} />
}
