/** Ark Tabs styled by the `tabs` recipe: `<Tabs.Root>`, `<Tabs.List>`, `<Tabs.Trigger>`, `<Tabs.Content>`. */
import { Tabs as ArkTabs } from '@ark-ui/react/tabs'
import type { ComponentProps } from 'react'
import { cx } from 'styled-system/css'
import { tabs } from 'styled-system/recipes'

const classes = tabs()

function Root({ className, ...props }: ComponentProps<typeof ArkTabs.Root>) {
  return <ArkTabs.Root className={cx(classes.root, className)} {...props} />
}
function List({ className, ...props }: ComponentProps<typeof ArkTabs.List>) {
  return <ArkTabs.List className={cx(classes.list, className)} {...props} />
}
function Trigger({ className, ...props }: ComponentProps<typeof ArkTabs.Trigger>) {
  return <ArkTabs.Trigger className={cx(classes.trigger, className)} {...props} />
}
function Content({ className, ...props }: ComponentProps<typeof ArkTabs.Content>) {
  return <ArkTabs.Content className={cx(classes.content, className)} {...props} />
}

export const Tabs = { Root, List, Trigger, Content }
