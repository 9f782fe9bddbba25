/**
 * A data table that scrolls sideways inside its own box (usable at 375 px): the box is a focusable,
 * labelled region so the keyboard can scroll it too.
 */
import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react'
import { css, cx } from 'styled-system/css'
import { table } from 'styled-system/recipes'

const classes = table()

export function DataTable({
  label,
  head,
  children,
  busy,
}: {
  label: string
  head: ReactNode
  children: ReactNode
  busy?: boolean
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section className={classes.scroll} aria-label={label} tabIndex={0}>
      <table className={classes.table} aria-busy={busy || undefined}>
        <thead className={classes.head}>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  )
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cx(classes.header, className)} {...props} />
}

export function Tr({ children, muted }: { children: ReactNode; muted?: boolean }) {
  return <tr className={cx(classes.row, muted ? css({ opacity: 0.5 }) : undefined)}>{children}</tr>
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cx(classes.cell, className)} {...props} />
}

const bone = css({
  display: 'block',
  h: '3.5',
  borderRadius: 'sm',
  bg: 'bg.subtle',
  animation: 'pulse 1.5s ease-in-out infinite',
})

/** Placeholder rows while a table loads. */
export function SkeletonRows({ rows = 4, columns }: { rows?: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <tr key={r} className={classes.row} data-skeleton="">
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
            <td key={c} className={classes.cell}>
              <span className={bone} style={{ width: `${50 + ((r * 7 + c * 13) % 40)}%` }} />
            </td>
          ))}
        </tr>
      ))}
    </>
  )
}

/** A full-width row for empty and error states. */
export function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <tr className={classes.row}>
      <td
        colSpan={columns}
        className={cx(classes.cell, css({ py: '10', textAlign: 'center', color: 'fg.muted' }))}
      >
        {children}
      </td>
    </tr>
  )
}
