import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import type { SessionActor } from '../machines/session/session.implementations'
import type { AccountNotice } from '../machines/shared/notice'
import { AppToaster } from '../ui/toasts'
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
      {/* Bottom centre: at the top they covered the header's menus; raised above the upload panel
          they covered the 2FA advice's buttons on a phone. */}
      <AppToaster position="bottom-center" toastOptions={{ duration: 4000 }} />
    </>
  ),
  notFoundComponent: NotFoundView,
})
