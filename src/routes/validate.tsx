import { createFileRoute } from '@tanstack/react-router'
import { ActivateAccountView } from '../ui/views/account-views'
import { EmailLinkSearch, emailLinkProps } from './-guards'

export const Route = createFileRoute('/validate')({
  validateSearch: EmailLinkSearch,
  beforeLoad: ({ context }) => context.loadAccount(),
  component: () => <ActivateAccountView {...emailLinkProps(Route.useSearch())} />,
})
