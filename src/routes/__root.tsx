import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import type { SessionActor } from '../machines/session/session.implementations'
import type { AccountNotice } from '../machines/shared/notice'
import { Notifications } from '../ui/toaster'
import { NotFoundView } from '../ui/views/status-views'

export type RouterContext = {
  session: SessionActor
  /** Toasts for guards that turn a visitor away (/two-factor opened directly). */
  notify: (notice: AccountNotice) => void
  /** Load the signed-in screens' and the account screens' machines (composeApp's): their routes wait for them. */
  loadScreens: () => Promise<void>
  loadAccount: () => Promise<void>
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <Notifications />
    </>
  ),
  notFoundComponent: NotFoundView,
})
