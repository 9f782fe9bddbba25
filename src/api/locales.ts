/**
 * Message catalogs, served outside the API prefix at /locales/{lng}/common.json.
 * A failed load is retried 5 times, the delay starting at 350 ms and doubling.
 */
import ky from 'ky'
import * as v from 'valibot'
import type { Language } from '../../contract'
import { contractMessages } from '../../contract'
import { ApiError } from './http'

/** `lingui compile --namespace json` output: `{ messages: { id: compiled message } }`. */
const CatalogFile = v.object({ messages: v.record(v.string(), v.union([v.string(), v.array(v.unknown())])) })
export type Catalog = Record<string, string | unknown[]>

export function createLocalesApi(config: { baseUrl: string; fetch?: typeof fetch }) {
  const base = config.baseUrl.replace(/\/$/, '')
  return {
    async load(language: Language): Promise<Catalog> {
      try {
        const body = await ky
          .get(`${base}/${language}/common.json`, {
            timeout: 10_000,
            retry: { limit: 5, methods: ['get'], backoffLimit: 5_600, delay: (n) => 350 * 2 ** (n - 1) },
            ...(config.fetch ? { fetch: config.fetch } : {}),
          })
          .json()
        return v.parse(CatalogFile, body).messages as Catalog
      } catch (error) {
        throw new ApiError(500, error instanceof Error ? error.message : contractMessages.unknownError)
      }
    },
  }
}
