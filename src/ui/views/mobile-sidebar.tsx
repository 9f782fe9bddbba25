import { Dialog as ArkDialog } from '@ark-ui/react/dialog'
import { useLingui } from '@lingui/react/macro'
import { Dialog } from '../components/dialog'
import { Brand, NavItems, type SidebarActor } from './app-nav'

/** The sidebar as an overlay below 768 px; mounted only while open. */
export default function MobileSidebar({ sidebar }: { sidebar: SidebarActor }) {
  const { t } = useLingui()
  return (
    <Dialog.Root
      variant="drawer"
      open
      onOpenChange={(d) => !d.open && sidebar.send({ type: 'sidebar.close' })}
    >
      <Dialog.Layer>
        <Dialog.Content>
          <Dialog.Bar>
            {/* The brand names the drawer, in its own type (not the title slot's). */}
            <ArkDialog.Title asChild>
              <div>
                <Brand collapsed={false} />
              </div>
            </ArkDialog.Title>
            <Dialog.CloseButton label={t`Close navigation`} />
          </Dialog.Bar>
          <NavItems collapsed={false} />
        </Dialog.Content>
      </Dialog.Layer>
    </Dialog.Root>
  )
}
