import { createFileRoute } from '@tanstack/react-router'
import { ResetPasswordView } from '../ui/views/account-views'

export const Route = createFileRoute('/reset-password')({
  beforeLoad: ({ context }) => context.loadAccount(),
  component: ResetPasswordView,
})
