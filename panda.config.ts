import { defineConfig } from '@pandacss/dev'
import { recipes, slotRecipes } from './src/ui/theme/recipes'

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  globalCss: {
    'html, body': { bg: 'bg.canvas', color: 'fg.default', fontFamily: 'body', lineHeight: '1.5' },
    '*:focus-visible': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
  },
  theme: {
    extend: {
      tokens: {
        // Stacking, bottom to top: the page's sticky header and side bar, the upload panel, popovers
        // and menus, tooltips, the dialogs' backdrop and frames, toasts.
        zIndex: {
          hide: { value: -1 },
          base: { value: 0 },
          docked: { value: 10 },
          sticky: { value: 100 },
          banner: { value: 200 },
          dropdown: { value: 300 },
          popover: { value: 300 },
          tooltip: { value: 400 },
          overlay: { value: 500 },
          modal: { value: 510 },
          toast: { value: 600 },
          skipLink: { value: 700 },
        },
        fonts: {
          body: {
            value: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
          },
        },
      },
      semanticTokens: {
        colors: {
          bg: {
            canvas: { value: '{colors.slate.50}' },
            surface: { value: '{colors.white}' },
            muted: { value: '{colors.slate.100}' },
            subtle: { value: '{colors.slate.200}' },
          },
          fg: {
            default: { value: '{colors.slate.900}' },
            muted: { value: '{colors.slate.600}' },
            subtle: { value: '{colors.slate.500}' },
            onAccent: { value: '{colors.white}' },
          },
          border: { default: { value: '{colors.slate.200}' }, strong: { value: '{colors.slate.300}' } },
          accent: {
            default: { value: '{colors.indigo.600}' },
            emphasis: { value: '{colors.indigo.700}' },
            subtle: { value: '{colors.indigo.50}' },
            fg: { value: '{colors.indigo.700}' },
          },
          danger: {
            default: { value: '{colors.red.600}' },
            subtle: { value: '{colors.red.50}' },
            fg: { value: '{colors.red.700}' },
          },
          info: { subtle: { value: '{colors.sky.50}' }, fg: { value: '{colors.sky.800}' } },
          // A document's status badge: completed green, processing blue, pending yellow, failed red,
          // any other status grey.
          status: {
            completed: { bg: { value: '{colors.green.100}' }, fg: { value: '{colors.green.800}' } },
            processing: { bg: { value: '{colors.blue.100}' }, fg: { value: '{colors.blue.800}' } },
            pending: { bg: { value: '{colors.yellow.100}' }, fg: { value: '{colors.yellow.800}' } },
            failed: { bg: { value: '{colors.red.100}' }, fg: { value: '{colors.red.800}' } },
            other: { bg: { value: '{colors.slate.100}' }, fg: { value: '{colors.slate.700}' } },
          },
          // The figures of the dashboard's summary cards.
          summary: {
            total: { value: '{colors.indigo.600}' },
            pending: { value: '{colors.yellow.600}' },
            failed: { value: '{colors.red.600}' },
            review: { value: '{colors.orange.700}' },
          },
          // The DocFlow logo: an indigo tile, a white page and its folded corner.
          logo: {
            tile: { value: '{colors.indigo.600}' },
            page: { value: '{colors.white}' },
            fold: { value: '{colors.indigo.200}' },
          },
        },
      },
      recipes,
      slotRecipes,
    },
  },
})
