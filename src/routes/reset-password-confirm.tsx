import { createFileRoute } from '@tanstack/react-router'
import { ResetPasswordConfirmView } from '../ui/views/account-views'
import { EmailLinkSearch, emailLinkProps } from './-guards'

export const Route = createFileRoute('/reset-password-confirm')({
  validateSearch: EmailLinkSearch,
  beforeLoad: ({ context }) => context.loadAccount(),
  component: () => <ResetPasswordConfirmView {...emailLinkProps(Route.useSearch())} />,
})
