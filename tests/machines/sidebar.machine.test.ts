import { expect } from 'vitest'
import { sidebarMachine } from '../../src/machines/shell/sidebar.machine'
import { describeModel } from '../support/model'

describeModel('sidebar machine', {
  machine: sidebarMachine,
  actors: [],
  events: {},
  states: {
    'desktop.expanded': (s) => expect(s.matches({ desktop: 'collapsed' })).toBe(false),
    'desktop.collapsed': (s) => expect(s.can({ type: 'sidebar.toggle' })).toBe(true),
    'mobile.closed': (s) => expect(s.can({ type: 'route.changed' })).toBe(false),
    'mobile.open': (s) => expect(s.can({ type: 'route.changed' })).toBe(true),
  },
})
