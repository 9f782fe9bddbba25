/**
 * Keyboard focus around a row's details: Invoice and Expense rows open them (click, Enter), and when
 * the dialog closes focus returns to the row that opened it, once the list has reloaded (closing the
 * details reloads the list, which replaces the rows).
 */
import { useSelector } from '@xstate/react'
import { useEffect, useRef } from 'react'
import { css } from 'styled-system/css'
import type { LogEntry } from '../../../../contract'
import type { DashboardActor } from '../../../machines/dashboard/dashboard.implementations'

/** The attribute that names an openable row by its details (`invoice-12`). */
export const ROW_KEY_ATTRIBUTE = 'data-details'

/** Rows of these types open their details. */
export const hasDetails = (log: LogEntry) => log.type === 'Invoice' || log.type === 'Expense'

export const rowKey = (log: LogEntry) => `${log.type.toLowerCase()}-${log.document_id}`

export const openableRow = css({
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
})

/** The row whose click, key or link opened the details last (a duplicate's link opens another document's). */
let opener: string | null = null
export const rememberOpener = (log: LogEntry) => {
  opener = rowKey(log)
}

/**
 * After the details `detail` close, focuses the row that opened them when the reloaded rows are shown.
 * `opened` is the open dialog's row key, `waiting` the closed one's until the reload is seen.
 */
export function useFocusReturnToRow(dashboard: DashboardActor, detail: { kind: string; id: number } | null) {
  const rowsShown = useSelector(dashboard, (s) => !s.hasTag('loading'))
  const opened = useRef<string | null>(null)
  const waiting = useRef<{ key: string; reloading: boolean } | null>(null)
  useEffect(() => {
    if (detail) {
      opened.current = opener ?? `${detail.kind}-${detail.id}`
      opener = null
      waiting.current = null
      return
    }
    if (opened.current) {
      waiting.current = { key: opened.current, reloading: false }
      opened.current = null
    }
    const pending = waiting.current
    if (!pending) return
    if (!rowsShown) {
      pending.reloading = true
      return
    }
    if (!pending.reloading) return
    waiting.current = null
    document.querySelector<HTMLElement>(`[${ROW_KEY_ATTRIBUTE}="${CSS.escape(pending.key)}"]`)?.focus()
  }, [detail, rowsShown])
}
