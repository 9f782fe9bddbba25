/** Composition root: API client → root actors → router → render. */
import type { Messages } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { createRouter, RouterProvider } from '@tanstack/react-router'
import { useSelector } from '@xstate/react'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { type InspectionEvent, waitFor } from 'xstate'
import { createApi } from './api'
import { PREFETCH_GLOBAL, type PrefetchStore, prefetchedFetch } from './api/prefetched'
import { composeApp } from './composition'
import { notice } from './machines/shared/notice'
import { routeTree } from './routeTree.gen'
import { AppActorsProvider } from './ui/app-context'
import { activateLanguage, detectLanguage, i18n, LANGUAGE_STORAGE_KEY } from './ui/i18n'
import { toastNotify } from './ui/notify'
import { LanguageFailedView } from './ui/views/language-failed-view'
import { RouteErrorView, RoutePendingView } from './ui/views/status-views'
import './index.css'

/** The Stately inspector, only with `?inspect` in the URL or VITE_INSPECT=true at build time. */
async function loadInspector(): Promise<((event: InspectionEvent) => void) | undefined> {
  const wanted =
    new URLSearchParams(window.location.search).has('inspect') || import.meta.env.VITE_INSPECT === 'true'
  if (!wanted) return undefined
  const { createBrowserInspector } = await import('@statelyai/inspect')
  return createBrowserInspector().inspect as (event: InspectionEvent) => void
}

/** A new task: the browser may paint and answer input before the rest of start-up runs. */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

// The modules have been evaluated: a new task creates the app.
await yieldToBrowser()
const inspect = await loadInspector()

const api = createApi({
  baseUrl: import.meta.env.VITE_API_BASE_URL ?? '/api',
  fetch: prefetchedFetch(
    (window as unknown as Record<string, PrefetchStore | undefined>)[PREFETCH_GLOBAL],
    window.fetch.bind(window),
    window.location.href,
  ),
  localesBaseUrl: import.meta.env.VITE_LOCALES_BASE_URL ?? '/locales',
  onUnauthorized: () => actors.session.send({ type: 'session.expired' }),
})

const actors = composeApp({
  api,
  notify: toastNotify,
  storage: window.localStorage,
  locale: {
    activate: (language, catalog) => activateLanguage(language, catalog as Messages),
    storageKey: LANGUAGE_STORAGE_KEY,
  },
  // Absent outside secure contexts: copying then fails with a toast asking to copy by hand.
  clipboard: navigator.clipboard ?? { writeText: () => Promise.reject(new Error('Clipboard unavailable')) },
  initialLanguage: detectLanguage(window.localStorage, navigator.language),
  inspect,
  navigate: {
    toPath: (path, options) => void router.navigate({ href: path, replace: options?.replace }),
    toLogin: (returnHere) => {
      const here = router.state.location.href
      void router.navigate({ to: '/login', search: returnHere && here !== '/' ? { redirect: here } : {} })
    },
  },
})

const router = createRouter({
  routeTree,
  context: {
    session: actors.session,
    notify: (code) => toastNotify(notice(`account.${code}`)),
    // The signed-in screens' chunk starts as soon as the session is signed in; the account screens'
    // with their pages.
    loadScreens: actors.loadScreens,
    loadAccount: actors.loadAccount,
  },
  // A screen that fails shows our own translated view (with a reload), inside what still works.
  defaultErrorComponent: RouteErrorView,
  // A page whose code is slow to come, or waits for the network (code-chunks.ts), says so.
  defaultPendingComponent: RoutePendingView,
  defaultPreload: 'intent',
  scrollRestoration: true,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}

// Another task starts them (and the first render is another): start-up is a few tasks, not one long
// one that a phone's slower CPU would make input wait for.
await yieldToBrowser()
actors.session.start()
actors.language.start()
actors.companySelection.start()

// The router fetches a route's code only once the session check (`beforeLoad`) has answered: start
// fetching the opened page's chunks now, alongside that check and the message catalog.
for (const route of router.getMatchedRoutes(window.location.pathname)[0]) void router.loadRouteChunk(route)

function App() {
  const phase = useSelector(actors.language, (s) =>
    s.hasTag('loaded') ? 'loaded' : s.value === 'failed' ? 'failed' : 'loading',
  )
  if (phase === 'loading') return null
  if (phase === 'failed')
    return <LanguageFailedView onRetry={() => actors.language.send({ type: 'language.retry' })} />
  return (
    <I18nProvider i18n={i18n}>
      <AppActorsProvider value={actors}>
        <RouterProvider router={router} />
      </AppActorsProvider>
    </I18nProvider>
  )
}

// index.html's placeholder stays until the catalog is in (React would replace it with nothing).
await waitFor(actors.language, (s) => s.hasTag('loaded') || s.value === 'failed', { timeout: Infinity })

await yieldToBrowser()
// A transition: React renders the first screen in slices, yielding to the browser between them, rather
// than in one long task (the first screen's main-thread time is what a phone waits for).
const root = createRoot(document.getElementById('root')!)
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
)
