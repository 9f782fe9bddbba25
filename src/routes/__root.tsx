import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { Toaster } from 'react-hot-toast'
import type { SessionActor } from '../ui/app-context'
import type { AccountNotice } from '../ui/messages'
import { NotFoundView } from '../ui/views/status-views'

export type RouterContext = {
  session: SessionActor
  /** Toasts for guards that turn a visitor away (invalid links, /two-factor opened directly). */
  notify: (notice: AccountNotice) => void
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      {/* Bottom centre: clear of the header's menus (top) and of the upload panel (bottom right). */}
      {/* Above the collapsed upload panel (bottom right, full width on a phone), not over it. */}
      <Toaster position="bottom-center" containerStyle={{ bottom: 88 }} toastOptions={{ duration: 4000 }} />
    </>
  ),
  notFoundComponent: NotFoundView,
})
