import { createFileRoute } from '@tanstack/react-router'
import { ActivateAccountView } from '../ui/views/account-views'
import { EmailLinkSearch, emailLinkProps, requireEmailLink } from './-guards'

export const Route = createFileRoute('/validate')({
  validateSearch: EmailLinkSearch,
  beforeLoad: requireEmailLink('invalidValidationLink'),
  component: () => <ActivateAccountView {...emailLinkProps(Route.useSearch())} />,
})
