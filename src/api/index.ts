/** The API of the app: the only code that knows URLs. */

import type { AdminApi } from './admin'
import type { ApiTokensApi } from './api-tokens'
import { createAuthApi } from './auth'
import { loadOnce, uploadNetworkError } from './code-chunks'
import { createCompaniesApi } from './companies'
import type { DetailsApi } from './details'
import type { createDocumentsApi } from './documents'
import type { EventsApi, OpenEventSource } from './events'
import { createExportsApi } from './exports'
import { createHttp, type HttpConfig } from './http'
import { createLocalesApi } from './locales'
import type { createLogsApi } from './logs'
import { createSettingsApi } from './settings'

/** `eventSource`: opens the live events' stream (default: the browser's EventSource). */
export type ApiConfig = HttpConfig & { localesBaseUrl: string; eventSource?: OpenEventSource }

type DocumentsApi = ReturnType<typeof createDocumentsApi>
type LogsApi = ReturnType<typeof createLogsApi>

export function createApi(config: ApiConfig) {
  const http = createHttp(config)
  // The upload queue's and the dashboard's calls load their module (and the contract's schemas that
  // check their answers) on the first call: the login page makes none. Each module loads once, and
  // again after the network came back if it could not be fetched (code-chunks.ts). The uploads'
  // module fails at once instead, as the upload it was asked for would: the upload item waits for
  // the network itself ("Waiting for network") and sends again.
  const loadDocuments = loadOnce<DocumentsApi>(
    () =>
      import('./documents').then(
        (m) =>
          m.createDocumentsApi(http, {
            ...(config.onUnauthorized ? { onUnauthorized: config.onUnauthorized } : {}),
            ...(config.timeouts ? { timeoutMs: config.timeouts.upload } : {}),
          }),
        () => {
          throw uploadNetworkError()
        },
      ),
    { waitForNetwork: false },
  )
  const loadLogs = loadOnce<LogsApi>(() => import('./logs').then((m) => m.createLogsApi(http)))
  return {
    auth: createAuthApi(http),
    settings: createSettingsApi(http),
    /** The administration calls, a chunk of their own (platform administrators only). */
    loadAdmin: loadOnce<AdminApi>(() =>
      import('./admin').then((m) => m.createAdminApi(http, { baseUrl: config.baseUrl })),
    ),
    /** Settings → API tokens, a chunk of its own (loaded with its section). */
    loadApiTokens: loadOnce<ApiTokensApi>(() =>
      import('./api-tokens').then((m) => m.createApiTokensApi(http)),
    ),
    companies: createCompaniesApi(http),
    /** The invoice and expense detail calls, a chunk of their own (loaded with the detail dialog). */
    loadDetails: loadOnce<DetailsApi>(() => import('./details').then((m) => m.createDetailsApi(http))),
    documents: {
      upload: async (...args) => (await loadDocuments()).upload(...args),
      bulkStatus: async (...args) => (await loadDocuments()).bulkStatus(...args),
    } satisfies DocumentsApi,
    logs: {
      list: async (...args) => (await loadLogs()).list(...args),
      summary: async (...args) => (await loadLogs()).summary(...args),
      remove: async (...args) => (await loadLogs()).remove(...args),
    } satisfies LogsApi,
    /** The live events, a chunk of their own (loaded by the dashboard once it shows). */
    loadEvents: loadOnce<EventsApi>(() =>
      import('./events').then((m) => m.createEventsApi(http, config.eventSource)),
    ),
    exports: createExportsApi(http),
    locales: createLocalesApi({
      baseUrl: config.localesBaseUrl,
      ...(config.fetch ? { fetch: config.fetch } : {}),
    }),
  }
}
export type Api = ReturnType<typeof createApi>
