import { css } from 'styled-system/css'

/** The user menu trigger's visible text: the user's first name, shown from the `sm` width up. */
export const userMenuName = css({ display: { base: 'none', sm: 'inline' }, truncate: true, maxW: '40' })
