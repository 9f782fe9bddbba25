/** Labels shared by the administration screens. */
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type CompanyRole, type GlobalRole, isPlatformAdmin } from '../../../../contract'

const roleLabels = {
  SAAS_ADMIN: msg`Platform administrator`,
  INTERNAL_USER: msg`Internal user`,
  CLIENT_USER: msg`Client user`,
  ADMIN: msg`Admin`,
  COMPANY_ADMIN: msg`Admin`,
  COMPANY_USER: msg`User`,
}

export function roleLabel(i18n: I18n, role: GlobalRole | CompanyRole | 'ADMIN'): string {
  return i18n._(roleLabels[role])
}

/** The users table's companies column: 'All' for platform admins, '-' for none, two names then '+N'. */
export function companiesSummary(
  i18n: I18n,
  user: { role: GlobalRole; companies: { company_name: string }[] },
): string {
  if (isPlatformAdmin(user)) return i18n._(msg`All`)
  if (user.companies.length === 0) return '-'
  const names = user.companies.slice(0, 2).map((c) => c.company_name)
  const rest = user.companies.length - names.length
  return rest > 0 ? `${names.join(', ')} +${rest}` : names.join(', ')
}
