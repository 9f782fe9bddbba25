import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import { Toaster } from 'react-hot-toast'
import type { SessionActor } from '../machines/session/session.implementations'
import type { AccountNotice } from '../machines/shared/notice'
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
      {/* Above the upload panel while it shows (its height, set by the panel), never over it. */}
      <Toaster
        position="bottom-center"
        containerStyle={{ bottom: 'calc(16px + var(--upload-panel-height, 0px))' }}
        toastOptions={{ duration: 4000 }}
      />
    </>
  ),
  notFoundComponent: NotFoundView,
})
