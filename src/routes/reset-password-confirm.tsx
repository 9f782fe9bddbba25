import { createFileRoute, redirect } from '@tanstack/react-router'
import * as v from 'valibot'
import { ResetPasswordConfirmView } from '../ui/views/account-views'

export const Route = createFileRoute('/reset-password-confirm')({
  validateSearch: v.object({ token: v.optional(v.string()), email: v.optional(v.string()) }),
  beforeLoad: ({ context, search }) => {
    if (!search.token || !search.email) {
      context.notify('invalidResetLink')
      throw redirect({ to: '/login' })
    }
  },
  component: ResetConfirmRoute,
})

function ResetConfirmRoute() {
  const { token, email } = Route.useSearch()
  return <ResetPasswordConfirmView email={email ?? ''} token={token ?? ''} />
}
