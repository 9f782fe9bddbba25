import { useLingui } from '@lingui/react/macro'
import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { field, input } from 'styled-system/recipes'
import { EyeIcon, EyeOffIcon } from './icons'

/** The class of a label around a checkbox or a radio button. */
export const choiceLabel = field().choice

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode
  error?: string | undefined
  hint?: ReactNode
  /** Content placed at the end of the input (e.g. a visibility toggle). */
  endAdornment?: ReactNode
}

type FrameProps = {
  label: ReactNode
  error?: string | undefined
  hint?: ReactNode
  className?: string | undefined
  id?: string | undefined
  /** The control, given its id and the attributes that tie it to the label, hint and error. */
  control: (a11y: {
    id: string
    'aria-invalid': true | undefined
    'aria-describedby': string | undefined
  }) => ReactNode
}

/** A form control's label, hint and error around it, tied to it by id (shared by every field). */
function FieldFrame({ label, error, hint, className, id, control }: FrameProps) {
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
      {control({
        id: inputId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
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

export function TextField({ label, error, hint, endAdornment, className, id, ...props }: FieldProps) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      id={id}
      control={(a11y) => (
        <div className={css({ position: 'relative' })}>
          <input {...a11y} className={cx(input(), endAdornment ? css({ pr: '10' }) : undefined)} {...props} />
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
      )}
    />
  )
}

/**
 * A text of several lines (an address), with the label, hint and error of a `TextField`. Enter adds a
 * line; it does not submit the form.
 */
export function TextAreaField({
  label,
  error,
  hint,
  className,
  id,
  rows = 3,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode
  error?: string | undefined
  hint?: ReactNode
}) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      className={className}
      id={id}
      control={(a11y) => (
        <textarea
          {...a11y}
          rows={rows}
          className={cx(input(), css({ h: 'auto', py: '2', resize: 'vertical' }))}
          {...props}
        />
      )}
    />
  )
}

/** A password field with the show/hide toggle of the login screen. */
function PasswordField(props: Omit<FieldProps, 'type' | 'endAdornment'>) {
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

type Errors = Partial<Record<string, string>>
type NamedFieldProps = Omit<FieldProps, 'label' | 'error'> & { errors: Errors; label?: ReactNode }

/** The e-mail of an account, named `email`; `autoComplete` says whose (default: the user's own). */
export function EmailField({ errors, label, ...props }: NamedFieldProps) {
  const { t } = useLingui()
  return (
    <TextField
      label={label ?? t`Email`}
      name="email"
      type="email"
      autoComplete="username"
      error={errors.email}
      required
      {...props}
    />
  )
}

/** The password the user signs in with (default name `password`). */
export function CurrentPasswordField({ errors, label, name = 'password' }: NamedFieldProps) {
  const { t } = useLingui()
  return (
    <PasswordField
      label={label ?? t`Password`}
      name={name}
      autoComplete="current-password"
      error={errors[name]}
      required
    />
  )
}

/** A code from the authenticator app (digits), or with `backup` one of the backup codes; named `token`. */
export function CodeField({ errors, backup, ...props }: NamedFieldProps & { backup?: boolean }) {
  const { t } = useLingui()
  return (
    <TextField
      label={backup ? t`Backup code` : t`Authentication code`}
      name="token"
      autoComplete="one-time-code"
      inputMode={backup ? 'text' : 'numeric'}
      error={errors.token}
      required
      {...props}
    />
  )
}

const NAME_PARTS = [
  { name: 'name', autoComplete: 'given-name' },
  { name: 'surname', autoComplete: 'family-name' },
]

/** First name and last name (`name`, `surname`) side by side from 640 px. */
export function NameFields({
  errors,
  labels,
  autoComplete,
}: {
  errors: Errors
  labels: [first: string, last: string]
  /** The user's own names (the browser may fill them in). */
  autoComplete?: boolean
}) {
  return (
    <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
      {NAME_PARTS.map((part, i) => (
        <TextField
          key={part.name}
          label={labels[i]}
          name={part.name}
          autoComplete={autoComplete ? part.autoComplete : undefined}
          error={errors[part.name]}
          required
        />
      ))}
    </div>
  )
}

/**
 * A new password (with the rules as a hint) and its confirmation, named `name` (default `password`)
 * and `confirmPassword`.
 */
export function NewPasswordFields({
  errors,
  label,
  confirmLabel,
  name = 'password',
}: {
  errors: Errors
  /** Default 'New password'. */
  label?: string
  /** Default 'Confirm password'. */
  confirmLabel?: string
  name?: string
}) {
  const { t } = useLingui()
  return (
    <>
      <PasswordField
        label={label ?? t`New password`}
        name={name}
        autoComplete="new-password"
        error={errors[name]}
        hint={t`At least 8 characters, with an uppercase letter, a lowercase letter and a number.`}
        required
      />
      <PasswordField
        label={confirmLabel ?? t`Confirm password`}
        name="confirmPassword"
        autoComplete="new-password"
        error={errors.confirmPassword}
        required
      />
    </>
  )
}
