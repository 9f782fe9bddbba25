import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { Toaster } from 'react-hot-toast'
import type { SessionActor } from '../ui/app-context'
import { NotFoundView } from '../ui/views/status-views'

export type RouterContext = { session: SessionActor }

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <Toaster position="top-right" toastOptions={{ duration: 4000 }} />
    </>
  ),
  notFoundComponent: NotFoundView,
})
