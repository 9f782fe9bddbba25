import { createFileRoute } from '@tanstack/react-router'
import { AppShell } from '../../ui/views/app-shell'

export const Route = createFileRoute('/_authenticated/_shell')({ component: AppShell })
