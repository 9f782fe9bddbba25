import { createFileRoute } from '@tanstack/react-router'
import { SettingsView } from '../../../ui/views/settings-view'

export const Route = createFileRoute('/_authenticated/_shell/settings')({
  beforeLoad: ({ context }) => context.loadAccount(),
  component: SettingsView,
})
