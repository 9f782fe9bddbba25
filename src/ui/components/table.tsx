/**
 * A data table that scrolls sideways inside its own box (usable at 375 px). Framed, the box is a
 * focusable, labelled region so the keyboard can scroll it too; embedded in a card that already names
 * it, the box is a plain scroller. Rows, headers and cells take the classes of the table they are in.
 */
import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react'
import { css } from 'styled-system/css'
import { table } from 'styled-system/recipes'
import { createStyleContext } from './style-context'

const { withProvider, withContext } = createStyleContext(table)
const Region = withProvider('section', 'scroll')
const Scroller = withProvider('div', 'scroll')
const Table = withContext('table', 'table')
const Head = withContext('thead', 'head')
const Row = withContext('tr', 'row')
const Header = withContext('th', 'header')
const Cell = withContext('td', 'cell')

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
  const content = (
    <>
      <Table aria-busy={busy || undefined}>
        <Head>
          <tr>{head}</tr>
        </Head>
        <tbody>{children}</tbody>
      </Table>
      {after}
    </>
  )
  return variant === 'embedded' ? (
    <Scroller variant="embedded">{content}</Scroller>
  ) : (
    // tabIndex: a scrollable region must be reachable by keyboard.
    <Region variant="framed" aria-label={label} tabIndex={0}>
      {content}
    </Region>
  )
}

export function Th(props: ThHTMLAttributes<HTMLTableCellElement>) {
  return <Header scope="col" {...props} />
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

export function Tr({
  muted,
  ...props
}: HTMLAttributes<HTMLTableRowElement> & { children: ReactNode; muted?: boolean }) {
  return <Row className={muted ? css({ opacity: 0.5 }) : undefined} {...props} />
}

export function Td(props: TdHTMLAttributes<HTMLTableCellElement>) {
  return <Cell {...props} />
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
        <Row key={r} data-skeleton="">
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
            <Cell key={c}>
              <span className={bone} style={{ width: `${50 + ((r * 7 + c * 13) % 40)}%` }} />
            </Cell>
          ))}
        </Row>
      ))}
    </>
  )
}

/** A full-width row for empty and error states. */
export function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <Row>
      <Cell colSpan={columns} className={css({ py: '10', textAlign: 'center', color: 'fg.muted' })}>
        {children}
      </Cell>
    </Row>
  )
}
