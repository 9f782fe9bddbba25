import { useLingui } from '@lingui/react/macro'
import { AppToaster } from './toasts'

/** The toasts, inside a named region so that they belong to a landmark (loaded with the first toast). */
export function Notifications() {
  const { t } = useLingui()
  return (
    <section aria-label={t`Notifications`}>
      {/* Bottom centre: at the top they covered the header's menus; raised above the upload panel
          they covered the 2FA advice's buttons on a phone. */}
      <AppToaster position="bottom-center" toastOptions={{ duration: 4000 }} />
    </section>
  )
}
