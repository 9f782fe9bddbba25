import type { Http } from './http'
import { type Language, UserSettings } from '../contract'

export function createSettingsApi(http: Http) {
  return {
    getMine: () => http.json('settings/me', UserSettings),
    saveMine: (language: Language) =>
      http.json('settings/me', UserSettings, { method: 'put', json: { language } }),
  }
}
export type SettingsApi = ReturnType<typeof createSettingsApi>
