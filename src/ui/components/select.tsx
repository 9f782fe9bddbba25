/** A labelled native select (keyboard and screen-reader friendly everywhere, also on phones). */
import { type ReactNode, type SelectHTMLAttributes, useId } from 'react'
import { css, cx } from 'styled-system/css'
import { field, input } from 'styled-system/recipes'

type SelectOption = { value: string; label: string; disabled?: boolean }

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> & {
  label: ReactNode
  options: SelectOption[]
  /** The empty first choice ('Select a role…'). */
  placeholder?: string
  error?: string | undefined
  hideLabel?: boolean
}

export function SelectField({
  label,
  options,
  placeholder,
  error,
  hideLabel,
  className,
  id,
  ...props
}: SelectFieldProps) {
  const generated = useId()
  const selectId = id ?? generated
  const classes = field()
  return (
    <div className={cx(classes.root, className)}>
      <label htmlFor={selectId} className={cx(classes.label, hideLabel ? css({ srOnly: true }) : undefined)}>
        {label}
      </label>
      <select
        id={selectId}
        className={cx(input(), css({ pr: '8', cursor: 'pointer' }))}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${selectId}-error` : undefined}
        {...props}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${selectId}-error`} className={classes.error} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
