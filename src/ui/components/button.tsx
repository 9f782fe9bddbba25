import type { ButtonHTMLAttributes } from 'react'
import { cx } from 'styled-system/css'
import { type ButtonVariantProps, button } from 'styled-system/recipes'
import { Spinner } from './spinner'

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & ButtonVariantProps

export function Button({ variant, size, fullWidth, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={cx(button({ variant, size, fullWidth }), className)} {...props} />
}

/** A button for work in progress: disabled and `aria-busy` while `busy`, with a spinner before its label. */
export function BusyButton({ busy, children, ...props }: ButtonProps & { busy: boolean }) {
  return (
    <Button disabled={busy} aria-busy={busy} {...props}>
      {busy ? <Spinner size={4} /> : null}
      {children}
    </Button>
  )
}
