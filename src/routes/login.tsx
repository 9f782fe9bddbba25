import { createFileRoute, redirect } from '@tanstack/react-router'
import * as v from 'valibot'
import { LoginView } from '../ui/views/login-view'
import { safeRedirect, settledSession } from './-guards'

export const Route = createFileRoute('/login')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  beforeLoad: async ({ context, search }) => {
    const session = await settledSession(context.session)
    if (session.matches('signedIn')) throw redirect({ href: safeRedirect(search.redirect) })
  },
  component: LoginRoute,
})

function LoginRoute() {
  const { redirect: target } = Route.useSearch()
  return <LoginView redirectTo={safeRedirect(target)} />
}
