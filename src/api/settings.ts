import { type Language, TwoFactorAdvice, UserSettings } from '../../contract'
import type { Http } from './http'

export function createSettingsApi(http: Http) {
  return {
    getMine: () => http.json('settings/me', UserSettings),
    saveMine: (language: Language) =>
      http.json('settings/me', UserSettings, { method: 'put', json: { language } }),
    saveTwoFactorAdvice: (advice: boolean) =>
      http.json('settings/two-factor-advice', TwoFactorAdvice, { method: 'put', json: { advice } }),
  }
}
