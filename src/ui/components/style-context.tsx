/**
 * park-ui's `createStyleContext`: the root part of a slot recipe computes the slot classes for its
 * variant props once and hands them down; every other part takes the class of its slot from there,
 * merged with its own `className`.
 */
import { type ComponentProps, createContext, type ElementType, use } from 'react'
import { cx } from 'styled-system/css'

type SlotRecipe<Slot extends string, Variants> = {
  (props?: Variants): Record<Slot, string>
  splitVariantProps<P extends Variants>(props: P): [Variants, unknown]
}

type WithClass = { className?: string | undefined }

export function createStyleContext<Slot extends string, Variants>(recipe: SlotRecipe<Slot, Variants>) {
  const Classes = createContext<Record<Slot, string> | null>(null)

  /** The root part: renders `Component` (its `slot` class, if any) and provides the classes. */
  function withProvider<T extends ElementType>(Component: T, slot?: Slot) {
    return function Provider(props: ComponentProps<T> & Variants) {
      const [variants, rest] = recipe.splitVariantProps(props)
      const classes = recipe(variants)
      const own = rest as WithClass
      const Comp = Component as ElementType
      return (
        <Classes value={classes}>
          {slot ? <Comp {...own} className={cx(classes[slot], own.className)} /> : <Comp {...own} />}
        </Classes>
      )
    }
  }

  /** A part inside the root: `Component` with the class of `slot`. */
  function withContext<T extends ElementType>(Component: T, slot: Slot) {
    return function Part(props: ComponentProps<T>) {
      const classes = use(Classes)
      if (!classes) throw new Error('A slot part is rendered outside its root')
      const own = props as WithClass
      const Comp = Component as ElementType
      return <Comp {...own} className={cx(classes[slot], own.className)} />
    }
  }

  return { withProvider, withContext }
}
