import { createFileRoute } from '@tanstack/react-router'
import { ResetPasswordConfirmView } from '../ui/views/account-views'
import { EmailLinkSearch, emailLinkProps, requireEmailLink } from './-guards'

export const Route = createFileRoute('/reset-password-confirm')({
  validateSearch: EmailLinkSearch,
  beforeLoad: requireEmailLink('invalidResetLink'),
  component: () => <ResetPasswordConfirmView {...emailLinkProps(Route.useSearch())} />,
})
