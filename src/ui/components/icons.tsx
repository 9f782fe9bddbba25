/** A few stroke icons (24×24, currentColor), decorative: callers label the control. */
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

type StrokeShapes = { paths: string[]; size?: number; extra?: ReactNode }

/** An icon drawing `paths` (and `extra` shapes) at `size` px (default 20). */
function StrokeIcon({ paths, size = 20, extra }: StrokeShapes) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {extra}
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  )
}

const strokeIcon =
  (paths: string[], shapes: Omit<StrokeShapes, 'paths'> = {}) =>
  () => <StrokeIcon paths={paths} {...shapes} />

export const HomeIcon = strokeIcon(['M3 10.5 12 3l9 7.5', 'M5 9.5V21h14V9.5'])
export const SettingsIcon = strokeIcon(
  [
    'M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
  ],
  { extra: <circle cx="12" cy="12" r="3" /> },
)
export const MenuIcon = strokeIcon(['M4 6h16M4 12h16M4 18h16'])
export const CloseIcon = strokeIcon(['M18 6 6 18M6 6l12 12'])
export const ChevronLeftIcon = strokeIcon(['m15 18-6-6 6-6'])
export const ChevronRightIcon = strokeIcon(['m9 18 6-6-6-6'])
export const GlobeIcon = strokeIcon(['M2 12h20M12 2a15.3 15.3 0 0 1 0 20 15.3 15.3 0 0 1 0-20z'], {
  extra: <circle cx="12" cy="12" r="10" />,
})
export const CheckIcon = strokeIcon(['M20 6 9 17l-5-5'])
export const EyeIcon = strokeIcon(['M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z'], {
  extra: <circle cx="12" cy="12" r="3" />,
})
export const EyeOffIcon = strokeIcon([
  'M17.9 17.9A10 10 0 0 1 12 19c-6.5 0-10-7-10-7a18 18 0 0 1 5.1-5.9M9.9 4.2A9 9 0 0 1 12 4c6.5 0 10 7 10 7a18 18 0 0 1-2.2 3.2M14.1 14.1a3 3 0 1 1-4.2-4.2M1 1l22 22',
])
export const LogoutIcon = strokeIcon(['M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9'])
export const ChartIcon = strokeIcon(['M3 3v18h18', 'M7 15v2M11 11v6M15 7v10M19 12v5'])
export const BoardIcon = strokeIcon(['M9 4v16M15 4v10'], {
  extra: <rect x="3" y="4" width="18" height="16" rx="2" />,
})
export const ExternalIcon = strokeIcon(
  ['M15 3h6v6M10 14 21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6'],
  { size: 14 },
)
export const UploadIcon = strokeIcon(['M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M17 8l-5-5-5 5M12 3v12'], {
  size: 18,
})
export const FileIcon = strokeIcon(
  ['M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z', 'M14 2v6h6'],
  { size: 16 },
)
export const TrashIcon = strokeIcon(['M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6'], { size: 16 })
export const LogoMark = () => (
  <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
    <rect width="32" height="32" rx="7" className={css({ fill: 'logo.tile' })} />
    <path
      d="M10 8h8l5 5v11a2 2 0 0 1-2 2H10a2 2 0 0 1-2-2V10a2 2 0 0 1 2-2z"
      className={css({ fill: 'logo.page' })}
    />
    <path d="M18 8v5h5" className={css({ fill: 'logo.fold' })} />
  </svg>
)
export const MailIcon = strokeIcon(['m22 7-10 6L2 7'], {
  extra: <rect x="2" y="4" width="20" height="16" rx="2" />,
})
export const UserIcon = strokeIcon(['M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2'], {
  extra: <circle cx="12" cy="7" r="4" />,
})
