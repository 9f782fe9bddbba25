/** The dashboard actor handed to the dashboard's parts (table, filter popover), and the filter count badge they share. */
import { createContext, use } from 'react'
import { css } from 'styled-system/css'
import type { DashboardActor } from '../../../machines/dashboard/dashboard.implementations'

export const DashboardActorContext = createContext<DashboardActor | null>(null)
export function useDashboard(): DashboardActor {
  const actor = use(DashboardActorContext)
  if (!actor) throw new Error('useDashboard outside the dashboard')
  return actor
}

export function FilterCount({ count }: { count: number }) {
  return (
    <span
      className={css({
        display: 'inline-grid',
        placeItems: 'center',
        minW: '5',
        h: '5',
        px: '1',
        borderRadius: 'full',
        bg: 'accent.default',
        color: 'fg.onAccent',
        fontSize: 'xs',
      })}
    >
      {count}
    </span>
  )
}
