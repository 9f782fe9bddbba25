/** The company switcher's trigger style and a company's logo (or initials), shared by the switcher and its popup. */
import { css } from 'styled-system/css'
import type { CompanyChoice } from '../../machines/shell/company-selection.machine'

export const switcherTrigger = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  h: '10',
  px: '2',
  maxW: { base: '44', sm: '64' },
  // Shrinks (the name truncated) so that the header fits a 320 px screen.
  minW: '0',
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
})

export function CompanyLogo({ company, size = 7 }: { company: CompanyChoice; size?: 6 | 7 }) {
  const px = size * 4
  if (company.logoUrl)
    return (
      <img
        src={company.logoUrl}
        alt=""
        width={px}
        height={px}
        className={css({ borderRadius: 'sm', objectFit: 'contain', flexShrink: 0, bg: 'white' })}
      />
    )
  return (
    // The initials are drawn by CSS (not text), so the switcher's visible text, which its accessible
    // name must contain, is the company's name alone.
    <span
      aria-hidden="true"
      data-initials={company.name.slice(0, 2).toUpperCase()}
      style={{ width: px, height: px }}
      className={css({
        display: 'grid',
        placeItems: 'center',
        borderRadius: 'sm',
        bg: 'accent.subtle',
        color: 'accent.fg',
        fontSize: 'xs',
        fontWeight: 'bold',
        flexShrink: 0,
        _before: { content: 'attr(data-initials)' },
      })}
    />
  )
}
