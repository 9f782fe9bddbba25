import { useLingui } from '@lingui/react/macro'
import { Toaster } from 'react-hot-toast'
import { css } from 'styled-system/css'

/** The toasts, inside a named region so that they belong to a landmark. */
export function Notifications() {
  const { t } = useLingui()
  return (
    <section aria-label={t`Notifications`}>
      {/* Bottom centre: at the top they covered the header's menus; raised above the upload panel
          they covered the 2FA advice's buttons on a phone. */}
      <Toaster position="bottom-center" toastOptions={{ duration: 4000 }} />
    </section>
  )
}

const toastIcon = css({
  display: 'grid',
  placeItems: 'center',
  flexShrink: 0,
  w: '5',
  h: '5',
  borderRadius: 'full',
  color: 'white',
  fontSize: 'xs',
  fontWeight: 'bold',
  lineHeight: '1',
})

/** Info and warning icons drawn like react-hot-toast's own success and error icons (a filled disc). */
export const InfoToastIcon = () => (
  <span aria-hidden="true" className={toastIcon} style={{ background: '#2563eb' }}>
    i
  </span>
)
export const WarningToastIcon = () => (
  <span aria-hidden="true" className={toastIcon} style={{ background: '#b45309' }}>
    !
  </span>
)
