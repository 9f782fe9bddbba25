import { useLingui } from '@lingui/react/macro'
import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { field, input } from 'styled-system/recipes'
import { EyeIcon, EyeOffIcon } from './icons'

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode
  error?: string | undefined
  hint?: ReactNode
  /** Content placed at the end of the input (e.g. a visibility toggle). */
  endAdornment?: ReactNode
}

export function TextField({ label, error, hint, endAdornment, className, id, ...props }: FieldProps) {
  const generated = useId()
  const inputId = id ?? generated
  const classes = field()
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null]
    .filter(Boolean)
    .join(' ')
  return (
    <div className={cx(classes.root, className)}>
      <label htmlFor={inputId} className={classes.label}>
        {label}
      </label>
      <div className={css({ position: 'relative' })}>
        <input
          id={inputId}
          className={cx(input(), endAdornment ? css({ pr: '10' }) : undefined)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          {...props}
        />
        {endAdornment ? (
          <div
            className={css({
              position: 'absolute',
              insetY: '0',
              right: '0',
              display: 'flex',
              alignItems: 'center',
              pr: '1',
            })}
          >
            {endAdornment}
          </div>
        ) : null}
      </div>
      {hint ? (
        <p id={`${inputId}-hint`} className={classes.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} className={classes.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A password field with the show/hide toggle of the login screen. */
export function PasswordField(props: Omit<FieldProps, 'type' | 'endAdornment'>) {
  const [visible, setVisible] = useState(false)
  const { t } = useLingui()
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? t`Hide password` : t`Show password`}
          aria-pressed={visible}
          className={css({
            display: 'grid',
            placeItems: 'center',
            w: '8',
            h: '8',
            borderRadius: 'md',
            color: 'fg.muted',
            cursor: 'pointer',
            _hover: { bg: 'bg.muted', color: 'fg.default' },
          })}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      }
    />
  )
}

/** A new password (with the rules as a hint) and its confirmation, named `password` / `confirmPassword`. */
export function NewPasswordFields({
  errors,
  label,
}: {
  errors: Partial<Record<string, string>>
  /** Default 'New password'. */
  label?: string
}) {
  const { t } = useLingui()
  return (
    <>
      <PasswordField
        label={label ?? t`New password`}
        name="password"
        autoComplete="new-password"
        error={errors.password}
        hint={t`At least 8 characters, with an uppercase letter, a lowercase letter and a number.`}
        required
      />
      <PasswordField
        label={t`Confirm password`}
        name="confirmPassword"
        autoComplete="new-password"
        error={errors.confirmPassword}
        required
      />
    </>
  )
}
