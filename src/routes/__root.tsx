import { createRootRouteWithContext, lazyRouteComponent, Outlet } from '@tanstack/react-router'
import { retryImport } from '../api/code-chunks'
import type { SessionActor } from '../machines/session/session.implementations'
import type { AccountNotice } from '../machines/shared/notice'
import { Notifications } from '../ui/toaster'

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
  // (The root route is not split by the router's plugin: its 404 page is, by hand.)
  notFoundComponent: lazyRouteComponent(
    () => retryImport(() => import('../ui/views/not-found-view')),
    'NotFoundView',
  ),
})
