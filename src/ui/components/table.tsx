/**
 * A data table that scrolls sideways inside its own box (usable at 375 px). Framed, the box is a
 * focusable, labelled region so the keyboard can scroll it too; embedded in a card that already names
 * it, the box is a plain scroller. Rows, headers and cells take the classes of the table they are in.
 */
import { createContext, type ReactNode, type TdHTMLAttributes, type ThHTMLAttributes, use } from 'react'
import { css, cx } from 'styled-system/css'
import { table } from 'styled-system/recipes'

const framed = table()
const embedded = table({ variant: 'embedded' })
const TableClasses = createContext(framed)

export function DataTable({
  label,
  head,
  children,
  busy,
  variant = 'framed',
  after,
}: {
  head: ReactNode
  children: ReactNode
  busy?: boolean
  /** After the table, inside the scrolling box (e.g. a "show more" button). */
  after?: ReactNode
} & ({ variant?: 'framed'; label: string } | { variant: 'embedded'; label?: undefined })) {
  const classes = variant === 'embedded' ? embedded : framed
  const content = (
    <>
      <table className={classes.table} aria-busy={busy || undefined}>
        <thead className={classes.head}>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {after}
    </>
  )
  return (
    <TableClasses value={classes}>
      {variant === 'embedded' ? (
        <div className={classes.scroll}>{content}</div>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section className={classes.scroll} aria-label={label} tabIndex={0}>
          {content}
        </section>
      )}
    </TableClasses>
  )
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  const classes = use(TableClasses)
  return <th scope="col" className={cx(classes.header, className)} {...props} />
}

const sortButton = css({
  display: 'inline-flex',
  gap: '1',
  alignItems: 'center',
  fontWeight: 'medium',
  cursor: 'pointer',
})

/** A column header that sorts by its column when pressed; an arrow shows the order in force. */
export function SortableTh({
  label,
  order,
  onSort,
}: {
  label: string
  /** The order when the table is sorted by this column, otherwise undefined. */
  order: 'asc' | 'desc' | undefined
  onSort: () => void
}) {
  return (
    <Th aria-sort={order === undefined ? undefined : order === 'asc' ? 'ascending' : 'descending'}>
      <button type="button" onClick={onSort} className={sortButton}>
        {label}
        <span aria-hidden="true">{order === undefined ? '' : order === 'asc' ? '↑' : '↓'}</span>
      </button>
    </Th>
  )
}

export function Tr({ children, muted }: { children: ReactNode; muted?: boolean }) {
  const classes = use(TableClasses)
  return <tr className={cx(classes.row, muted ? css({ opacity: 0.5 }) : undefined)}>{children}</tr>
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  const classes = use(TableClasses)
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
  const classes = use(TableClasses)
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
  const classes = use(TableClasses)
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
