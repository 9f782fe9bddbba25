/**
 * The shell's sidebar, two regions at once: on wide screens `expanded` ⇄ `collapsed` (16/64 units);
 * below 768 px the sidebar is an overlay, `closed` ⇄ `open`, that closes on every route change.
 */
import { setup } from 'xstate'

export type SidebarEvent =
  | { type: 'sidebar.toggle' }
  | { type: 'sidebar.open' }
  | { type: 'sidebar.close' }
  | { type: 'route.changed' }

export const sidebarMachine = setup({
  types: { events: {} as SidebarEvent },
}).createMachine({
  id: 'sidebar',
  type: 'parallel',
  states: {
    desktop: {
      initial: 'expanded',
      states: {
        expanded: { on: { 'sidebar.toggle': 'collapsed' } },
        collapsed: { on: { 'sidebar.toggle': 'expanded' } },
      },
    },
    mobile: {
      initial: 'closed',
      states: {
        closed: { on: { 'sidebar.open': 'open' } },
        open: { on: { 'sidebar.close': 'closed', 'route.changed': 'closed' } },
      },
    },
  },
})
