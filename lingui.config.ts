import type { LinguiConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

/** Source catalogs are PO files under locales/; `lingui compile` writes locales/<lng>/common.json,
 * which the server serves at /locales/<lng>/common.json and the app fetches at run time.
 * No origins in the PO files, so moving code does not churn the catalogs. */
const config: LinguiConfig = {
  locales: ['en', 'fr'],
  sourceLocale: 'en',
  fallbackLocales: { default: 'en' },
  catalogs: [{ path: '<rootDir>/locales/{locale}/common', include: ['src', 'contract'] }],
  compileNamespace: 'json',
  orderBy: 'messageId',
  format: formatter({ origins: false, lineNumbers: false }),
}

export default config
