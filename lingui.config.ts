import type { LinguiConfig } from '@lingui/conf'

/** Source catalogs are PO files under locales/; `lingui compile` writes locales/<lng>/common.json,
 * which the server serves at /locales/<lng>/common.json and the app fetches at run time. */
const config: LinguiConfig = {
  locales: ['en', 'fr'],
  sourceLocale: 'en',
  fallbackLocales: { default: 'en' },
  catalogs: [{ path: '<rootDir>/locales/{locale}/common', include: ['src'] }],
  compileNamespace: 'json',
  format: 'po',
}

export default config
