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

/** A centred spinner with a visible label, announced politely. */
export function LoadingScreen({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', color: 'fg.muted' })}
    >
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
        <Spinner size={8} />
        <span>{label}</span>
      </div>
    </div>
  )
}
