/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_BASE_URL?: string
  readonly VITE_LOCALES_BASE_URL?: string
  readonly VITE_INSPECT?: string
}
