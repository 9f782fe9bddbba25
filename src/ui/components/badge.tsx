import type { ReactNode } from 'react'
import { type BadgeVariantProps, badge } from 'styled-system/recipes'

export function Badge({ tone, children }: BadgeVariantProps & { children: ReactNode }) {
  return <span className={badge({ tone })}>{children}</span>
}
