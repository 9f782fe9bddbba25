/** The API of the app: the only code that knows URLs. */
import type { AdminApi } from './admin'
import type { ApiTokensApi } from './api-tokens'
import { createAuthApi } from './auth'
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
  // check their answers) on the first call: the login page makes none.
  let documents: Promise<DocumentsApi> | undefined
  const loadDocuments = () => {
    documents ??= import('./documents').then((m) =>
      m.createDocumentsApi(http, {
        ...(config.onUnauthorized ? { onUnauthorized: config.onUnauthorized } : {}),
        ...(config.timeouts ? { timeoutMs: config.timeouts.upload } : {}),
      }),
    )
    return documents
  }
  let logs: Promise<LogsApi> | undefined
  const loadLogs = () => {
    logs ??= import('./logs').then((m) => m.createLogsApi(http))
    return logs
  }
  let admin: Promise<AdminApi> | undefined
  let details: Promise<DetailsApi> | undefined
  let apiTokens: Promise<ApiTokensApi> | undefined
  let events: Promise<EventsApi> | undefined
  return {
    auth: createAuthApi(http),
    settings: createSettingsApi(http),
    /** The administration calls, a chunk of their own (platform administrators only). */
    loadAdmin: () => {
      admin ??= import('./admin').then((m) => m.createAdminApi(http, { baseUrl: config.baseUrl }))
      return admin
    },
    /** Settings → API tokens, a chunk of its own (loaded with its section). */
    loadApiTokens: () => {
      apiTokens ??= import('./api-tokens').then((m) => m.createApiTokensApi(http))
      return apiTokens
    },
    companies: createCompaniesApi(http),
    /** The invoice and expense detail calls, a chunk of their own (loaded with the detail dialog). */
    loadDetails: () => {
      details ??= import('./details').then((m) => m.createDetailsApi(http))
      return details
    },
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
    loadEvents: () => {
      events ??= import('./events').then((m) => m.createEventsApi(http, config.eventSource))
      return events
    },
    exports: createExportsApi(http),
    locales: createLocalesApi({
      baseUrl: config.localesBaseUrl,
      ...(config.fetch ? { fetch: config.fetch } : {}),
    }),
  }
}
export type Api = ReturnType<typeof createApi>
