/**
 * Label / value rows as a definition list (the detail dialog's fields, an e-invoice's data, the
 * review's shortcuts). `term` draws a label otherwise than as muted text (a key cap).
 */
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { text as textRecipe } from 'styled-system/recipes'

export function Definitions({
  rows,
  term,
}: {
  rows: [string, ReactNode][]
  term?: (label: string) => ReactNode
}) {
  return (
    <dl
      className={css({
        display: 'grid',
        gridTemplateColumns: 'minmax(8rem, auto) 1fr',
        columnGap: '4',
        rowGap: '2',
        fontSize: 'sm',
      })}
    >
      {rows.map(([label, value]) => (
        <div key={label} className={css({ display: 'contents' })}>
          <dt className={term ? undefined : textRecipe({ tone: 'muted' })}>{term ? term(label) : label}</dt>
          <dd className={css({ wordBreak: 'break-word' })}>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
