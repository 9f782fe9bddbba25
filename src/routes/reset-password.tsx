import { createFileRoute } from '@tanstack/react-router'
import { ResetPasswordView } from '../ui/views/account-views'

export const Route = createFileRoute('/reset-password')({ component: ResetPasswordView })
