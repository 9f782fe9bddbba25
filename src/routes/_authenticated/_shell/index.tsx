import { createFileRoute } from '@tanstack/react-router'
import { DashboardView } from '../../../ui/views/dashboard/dashboard-view'

export const Route = createFileRoute('/_authenticated/_shell/')({ component: DashboardView })
