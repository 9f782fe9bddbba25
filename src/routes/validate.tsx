import { createFileRoute, redirect } from '@tanstack/react-router'
import * as v from 'valibot'
import { ActivateAccountView } from '../ui/views/account-views'

export const Route = createFileRoute('/validate')({
  validateSearch: v.object({ token: v.optional(v.string()), email: v.optional(v.string()) }),
  beforeLoad: ({ context, search }) => {
    if (!search.token || !search.email) {
      context.notify('invalidValidationLink')
      throw redirect({ to: '/login' })
    }
  },
  component: ValidateRoute,
})

function ValidateRoute() {
  const { token, email } = Route.useSearch()
  return <ActivateAccountView email={email ?? ''} token={token ?? ''} />
}
