import { css } from 'styled-system/css'

export function Spinner({ size = 5 }: { size?: 4 | 5 | 8 }) {
  return (
    <span
      aria-hidden="true"
      className={css({
        display: 'inline-block',
        borderRadius: 'full',
        borderWidth: '2px',
        borderColor: 'accent.default',
        borderTopColor: 'transparent',
        animation: 'spin',
        flexShrink: 0,
      })}
      style={{ width: `${size * 0.25}rem`, height: `${size * 0.25}rem` }}
    />
  )
}
