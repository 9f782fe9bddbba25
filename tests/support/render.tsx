/** Renders a view as the app does: Lingui (English source messages), the app's actors, a memory router. */
import { i18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { createActor, fromPromise } from 'xstate'
import type { AppActors } from '../../src/composition'
import { companySelectionMachine } from '../../src/machines/shell/company-selection.machine'
import { languageMachine } from '../../src/machines/shell/language.machine'
import { AppActorsProvider } from '../../src/ui/app-context'

i18n.load('en', {})
i18n.activate('en')

export function createTestLanguageActor() {
  const actor = createActor(
    languageMachine.provide({ actors: { loadCatalog: fromPromise(async () => ({})) } }),
    { input: { language: 'en' } },
  )
  actor.start()
  return actor
}

/** The element wrapped in what the app provides around every view. */
export function inApp(element: ReactElement, actors: AppActors): ReactElement {
  const rootRoute = createRootRoute({ component: () => element })
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  })
  return (
    <I18nProvider i18n={i18n}>
      <AppActorsProvider value={actors}>
        <RouterProvider router={router} />
      </AppActorsProvider>
    </I18nProvider>
  )
}

export const renderInApp = (element: ReactElement, actors: AppActors) => render(inApp(element, actors))

/** App actors for a view test: the given ones, the rest unusable (a test that reaches them fails). */
export function testActors(overrides: Partial<AppActors> & Pick<AppActors, 'session'>): AppActors {
  const missing = new Proxy({} as AppActors['machines'], {
    get: (_, name) => {
      throw new Error(`machine ${String(name)} not provided to this test`)
    },
  })
  const companySelection = createActor(companySelectionMachine)
  companySelection.start()
  return {
    language: createTestLanguageActor(),
    companySelection,
    machines: missing,
    loadAdmin: () => Promise.reject(new Error('admin machines not provided to this test')),
    ...overrides,
  }
}
