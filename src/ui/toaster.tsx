import { useLingui } from '@lingui/react/macro'
import { AppToaster } from './toasts'

/** The toasts, inside a named region so that they belong to a landmark (loaded with the first toast). */
export function Notifications() {
  const { t } = useLingui()
  return (
    <section aria-label={t`Notifications`}>
      {/* Bottom centre: at the top they covered the header's menus; raised above the upload panel
          they covered the 2FA advice's buttons on a phone. Above the upload panel while it shows
          (its height, set by the panel), never over it. */}
      <AppToaster
        position="bottom-center"
        containerStyle={{ bottom: 'calc(16px + var(--upload-panel-height, 0px))' }}
        toastOptions={{ duration: 4000 }}
      />
    </section>
  )
}
