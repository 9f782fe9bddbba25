import { css } from 'styled-system/css'

/** Below `sm` the label is for screen readers only: the header must fit 375 px. */
export const uploadLabel = css({ srOnly: { base: true, sm: false } })
