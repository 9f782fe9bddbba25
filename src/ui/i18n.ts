import { i18n, type Messages } from '@lingui/core'
import type { Language } from '../../contract'

export { i18n }

/** Loads a compiled catalog and makes it current, with the page's `lang` and `dir`. */
export function activateLanguage(language: Language, messages: Messages) {
  i18n.load(language, messages)
  i18n.activate(language)
  document.documentElement.lang = language
  document.documentElement.dir = 'ltr'
}

export const LANGUAGE_STORAGE_KEY = 'i18nextLng'

/** The starting language: the one saved in local storage, then the browser's language, then English. */
export function detectLanguage(
  storage: Pick<Storage, 'getItem'>,
  navigatorLanguage: string | undefined,
): Language {
  const stored = storage.getItem(LANGUAGE_STORAGE_KEY)
  for (const candidate of [stored, navigatorLanguage]) {
    const short = candidate?.slice(0, 2).toLowerCase()
    if (short === 'en' || short === 'fr') return short
  }
  return 'en'
}

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français' }
