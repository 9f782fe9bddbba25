/** Panda recipes of the design system (park-ui layering: recipe → styled wrapper in ui/components). */
import { defineRecipe, defineSlotRecipe } from '@pandacss/dev'

const button = defineRecipe({
  className: 'button',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'medium',
    borderRadius: 'md',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    transition: 'background 0.15s, color 0.15s, border-color 0.15s',
    _disabled: { opacity: 0.55, cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      solid: { bg: 'accent.default', color: 'fg.onAccent', _hover: { _enabled: { bg: 'accent.emphasis' } } },
      outline: {
        borderWidth: '1px',
        borderColor: 'border.strong',
        bg: 'bg.surface',
        color: 'fg.default',
        _hover: { _enabled: { bg: 'bg.muted' } },
      },
      ghost: { bg: 'transparent', color: 'fg.default', _hover: { _enabled: { bg: 'bg.muted' } } },
      link: {
        bg: 'transparent',
        color: 'accent.fg',
        px: '0',
        h: 'auto',
        _hover: { textDecoration: 'underline' },
      },
      danger: { bg: 'danger.default', color: 'fg.onAccent', _hover: { _enabled: { bg: 'red.700' } } },
    },
    size: {
      sm: { h: '8', px: '3', fontSize: 'sm' },
      md: { h: '10', px: '4', fontSize: 'sm' },
      lg: { h: '11', px: '5', fontSize: 'md' },
      icon: { h: '10', w: '10', p: '0' },
    },
    fullWidth: { true: { w: 'full' } },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
})

const input = defineRecipe({
  className: 'input',
  base: {
    w: 'full',
    h: '10',
    px: '3',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'border.strong',
    bg: 'bg.surface',
    fontSize: 'sm',
    _placeholder: { color: 'fg.subtle' },
    _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '0' },
    '&[aria-invalid=true]': { borderColor: 'danger.default' },
    _disabled: { bg: 'bg.muted', cursor: 'not-allowed' },
  },
})

const field = defineSlotRecipe({
  className: 'field',
  slots: ['root', 'label', 'error', 'hint', 'choice'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5' },
    /** The label around a checkbox or a radio button, its text after it. */
    choice: { display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', cursor: 'pointer' },
    label: { fontSize: 'sm', fontWeight: 'medium', color: 'fg.default' },
    error: { fontSize: 'xs', color: 'danger.fg' },
    hint: { fontSize: 'xs', color: 'fg.muted' },
  },
})

/** The coloured boxes' palettes (background, text, border), shared by alerts and badges. */
const tones = {
  danger: { bg: 'danger.subtle', color: 'danger.fg', borderColor: 'red.200' },
  success: { bg: 'green.50', color: 'green.800', borderColor: 'green.200' },
  warning: { bg: 'amber.50', color: 'amber.800', borderColor: 'amber.200' },
} as const

const alert = defineRecipe({
  className: 'alert',
  base: { borderRadius: 'md', px: '3', py: '2.5', fontSize: 'sm', borderWidth: '1px' },
  variants: {
    status: {
      error: tones.danger,
      info: { bg: 'info.subtle', color: 'info.fg', borderColor: 'sky.200' },
      success: tones.success,
    },
  },
  defaultVariants: { status: 'info' },
})

/** Running text that is not the default: muted (secondary), danger (an error), a page title. */
const text = defineRecipe({
  className: 'text',
  base: {},
  variants: {
    tone: { muted: { color: 'fg.muted' }, danger: { color: 'danger.fg' } },
    size: {
      xs: { fontSize: 'xs' },
      sm: { fontSize: 'sm' },
      title: { fontSize: '2xl', fontWeight: 'bold', letterSpacing: 'tight' },
    },
  },
  staticCss: ['*'],
})

const card = defineRecipe({
  className: 'card',
  base: {
    bg: 'bg.surface',
    borderRadius: 'xl',
    borderWidth: '1px',
    borderColor: 'border.default',
    boxShadow: 'xs',
  },
})

const menu = defineSlotRecipe({
  className: 'menu',
  slots: ['content', 'item', 'itemIndicator'],
  base: {
    content: {
      bg: 'bg.surface',
      borderWidth: '1px',
      borderColor: 'border.default',
      borderRadius: 'md',
      boxShadow: 'lg',
      py: '1',
      minW: '40',
      zIndex: 'dropdown',
      outline: 'none',
    },
    item: {
      display: 'flex',
      alignItems: 'center',
      gap: '2',
      px: '3',
      py: '2',
      fontSize: 'sm',
      cursor: 'pointer',
      _highlighted: { bg: 'bg.muted' },
      _checked: { fontWeight: 'semibold' },
    },
    itemIndicator: { w: '4', color: 'accent.default' },
  },
})

const badge = defineRecipe({
  className: 'badge',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1.5',
    px: '2',
    py: '0.5',
    borderRadius: 'full',
    fontSize: 'xs',
    fontWeight: 'medium',
    whiteSpace: 'nowrap',
    borderWidth: '1px',
  },
  variants: {
    tone: {
      success: tones.success,
      neutral: { bg: 'bg.muted', color: 'fg.muted', borderColor: 'border.default' },
      danger: tones.danger,
      accent: { bg: 'accent.subtle', color: 'accent.fg', borderColor: 'indigo.200' },
      warning: tones.warning,
    },
  },
  defaultVariants: { tone: 'neutral' },
})

/** Frames that take keyboard focus themselves draw no focus ring around the whole frame. */
const focusFrame = { outline: 'none' } as const

/** The header, scrolling body and footer of a panel with a title bar (a side sheet, a form dialog). */
const panelParts = {
  header: {
    alignItems: 'flex-start',
    gap: '4',
    px: '6',
    py: '4',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
  },
  body: { px: '6', py: '5' },
  footer: {
    justifyContent: 'flex-end',
    px: '6',
    py: '4',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    bg: 'bg.canvas',
  },
} as const

/**
 * A positioner that centres its frame: one column as wide as the viewport less `padding`, so that a
 * wide part of the frame (a row of tabs, a long name) scrolls inside it instead of widening it.
 */
function centred(padding: string | { base: string; md: string }) {
  return { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', placeItems: 'center', p: padding } as const
}

/**
 * Every modal frame (on Ark Dialog): a dimmed backdrop, a fixed positioner and the content with its
 * title bar, body and footer. `sheet`: a side sheet from the right (full width on phones); `form`: a
 * centred form dialog; `detail`: full screen on phones, a large centred dialog from md; `alert`: a
 * small centred question; `drawer`: the navigation from the left.
 */
const dialog = defineSlotRecipe({
  className: 'dialog',
  slots: ['backdrop', 'positioner', 'content', 'header', 'heading', 'title', 'description', 'body', 'footer'],
  base: {
    backdrop: { position: 'fixed', inset: '0', bg: 'black/40', zIndex: 'overlay' },
    positioner: { position: 'fixed', inset: '0', zIndex: 'modal' },
    content: { bg: 'bg.surface', display: 'flex', flexDirection: 'column', boxShadow: 'xl' },
    header: { display: 'flex', justifyContent: 'space-between', flexShrink: 0 },
    heading: { display: 'flex', flexDirection: 'column', gap: '1', minW: '0' },
    title: { fontSize: 'lg', fontWeight: 'semibold' },
    description: { fontSize: 'sm', color: 'fg.muted' },
    // The body scrolls (both ways if a wide part needs it); the title bar and footer stay in view.
    body: { flex: '1', minH: '0', overflow: 'auto' },
    footer: { display: 'flex', gap: '2', flexShrink: 0 },
  },
  variants: {
    variant: {
      sheet: {
        ...panelParts,
        content: {
          ...focusFrame,
          position: 'fixed',
          top: '0',
          right: '0',
          h: '100dvh',
          w: 'full',
          maxW: 'min(token(sizes.xl), 100vw)',
          boxShadow: '2xl',
        },
      },
      form: {
        ...panelParts,
        positioner: centred('4'),
        content: {
          ...focusFrame,
          borderRadius: 'xl',
          w: 'full',
          maxW: 'min(token(sizes.lg), calc(100vw - 2rem))',
          maxH: 'calc(100dvh - 2rem)',
          minW: '0',
          overflow: 'hidden',
        },
      },
      detail: {
        positioner: centred({ base: '0', md: '4' }),
        content: {
          ...focusFrame,
          borderRadius: { base: 'none', md: 'xl' },
          w: 'full',
          maxW: '7xl',
          minW: '0',
          h: { base: '100dvh', md: '80dvh' },
          overflow: 'hidden',
        },
        header: { ...panelParts.header, px: { base: '4', md: '6' } },
        description: { wordBreak: 'break-all' },
        body: { minH: '0' },
        footer: {
          ...panelParts.footer,
          justifyContent: 'normal',
          flexWrap: 'wrap',
          alignItems: 'flex-end',
          gap: '3',
          px: { base: '4', md: '6' },
        },
      },
      alert: {
        positioner: centred('4'),
        content: {
          borderRadius: 'xl',
          p: '6',
          w: 'full',
          maxW: 'md',
          minW: '0',
          maxH: 'calc(100dvh - 2rem)',
          overflowY: 'auto',
          gap: '4',
        },
        footer: { justifyContent: 'flex-end' },
      },
      drawer: {
        positioner: { display: 'flex' },
        content: { ...focusFrame, w: '64', maxW: '80vw', h: 'full' },
        header: { alignItems: 'center', pr: '2' },
      },
    },
  },
  defaultVariants: { variant: 'sheet' },
  staticCss: [{ variant: ['*'] }],
})

/** The last column (a row's actions) stays in view at the right edge while the table scrolls sideways. */
const stickyEnd = {
  position: 'sticky',
  right: '0',
  boxShadow: 'inset 1px 0 0 token(colors.border.default)',
} as const

/**
 * Data tables. `framed`: a bordered, rounded box of its own (administration lists); `embedded`: the
 * table sits inside a card that already frames it (the dashboard's recent uploads), with sentence-case
 * headers and cells that keep to one line.
 */
const table = defineSlotRecipe({
  className: 'table',
  slots: ['scroll', 'table', 'head', 'row', 'header', 'cell'],
  base: {
    scroll: { overflowX: 'auto' },
    table: { w: 'full', borderCollapse: 'collapse', fontSize: 'sm' },
    head: { bg: 'bg.muted' },
    row: { borderTopWidth: '1px', borderColor: 'border.default' },
    header: { textAlign: 'left', px: '4', whiteSpace: 'nowrap' },
    cell: { px: '4', py: '3' },
  },
  variants: {
    variant: {
      framed: {
        scroll: {
          w: 'full',
          borderWidth: '1px',
          borderColor: 'border.default',
          borderRadius: 'lg',
          bg: 'bg.surface',
        },
        table: { minW: '2xl' },
        row: { _hover: { bg: 'slate.50' } },
        header: {
          fontWeight: 'semibold',
          color: 'fg.muted',
          fontSize: 'xs',
          textTransform: 'uppercase',
          letterSpacing: 'wide',
          py: '2.5',
          '&:last-child': { ...stickyEnd, bg: 'bg.muted' },
        },
        cell: { verticalAlign: 'middle', '&:last-child:not([colspan])': { ...stickyEnd, bg: 'bg.surface' } },
      },
      embedded: {
        // relative: a screen-reader-only header text is positioned inside this box, not the page.
        scroll: { position: 'relative' },
        head: {
          color: 'fg.muted',
          mdDown: {
            display: 'block',
            '& > tr': { display: 'flex', flexWrap: 'wrap', columnGap: '4', rowGap: '1', px: '4', py: '2' },
          },
        },
        header: {
          py: '3',
          // On phones the header row is a bar of the sort buttons; headers without one are hidden.
          mdDown: { display: 'block', px: '0', py: '0', '&:not(:has(button))': { display: 'none' } },
        },
        cell: {
          textAlign: 'left',
          whiteSpace: 'nowrap',
          mdDown: {
            display: 'block',
            p: '0',
            '&:first-child': { flexBasis: 'full', fontWeight: 'medium' },
            // Touch targets of at least 44 × 44 px.
            '& :is(button, a)': { minH: '11', minW: '11' },
          },
        },
        // On phones each row is a card: the name on its own line, then type, date, status and actions.
        table: { mdDown: { display: 'block', '& > tbody': { display: 'block' } } },
        row: {
          mdDown: {
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            columnGap: '3',
            rowGap: '1',
            px: '4',
            py: '3',
          },
        },
      },
    },
  },
  defaultVariants: { variant: 'framed' },
  staticCss: [{ variant: ['*'] }],
})

const tabs = defineSlotRecipe({
  className: 'tabs',
  slots: ['root', 'list', 'trigger', 'content', 'indicator'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '4' },
    list: {
      display: 'flex',
      gap: '1',
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      position: 'relative',
      overflowX: 'auto',
    },
    trigger: {
      px: '3',
      py: '2',
      fontSize: 'sm',
      fontWeight: 'medium',
      color: 'fg.muted',
      cursor: 'pointer',
      whiteSpace: 'nowrap',
      borderBottomWidth: '2px',
      borderColor: 'transparent',
      mb: '-1px',
      _hover: { color: 'fg.default' },
      _selected: { color: 'accent.fg', borderColor: 'accent.default' },
    },
    content: { outline: 'none' },
  },
})

export const recipes = { button, input, alert, card, badge, text }
export const slotRecipes = { dialog, field, menu, table, tabs }
