import { Dialog } from '@ark-ui/react/dialog'
import { useLingui } from '@lingui/react/macro'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { DialogLayer } from '../components/dialog-layer'
import { CloseIcon } from '../components/icons'
import { Brand, NavItems, type SidebarActor } from './app-nav'

/** The sidebar as an overlay below 768 px; mounted only while open. */
export default function MobileSidebar({ sidebar }: { sidebar: SidebarActor }) {
  const { t } = useLingui()
  return (
    <Dialog.Root open onOpenChange={(d) => !d.open && sidebar.send({ type: 'sidebar.close' })}>
      <DialogLayer placement="start">
        <Dialog.Content
          className={css({
            w: '64',
            maxW: '80vw',
            h: 'full',
            bg: 'bg.surface',
            display: 'flex',
            flexDirection: 'column',
            boxShadow: 'xl',
            outline: 'none',
          })}
        >
          <div
            className={css({
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              pr: '2',
            })}
          >
            <Dialog.Title asChild>
              <div>
                <Brand collapsed={false} />
              </div>
            </Dialog.Title>
            <Dialog.CloseTrigger
              className={button({ variant: 'ghost', size: 'icon' })}
              aria-label={t`Close navigation`}
            >
              <CloseIcon />
            </Dialog.CloseTrigger>
          </div>
          <NavItems collapsed={false} />
        </Dialog.Content>
      </DialogLayer>
    </Dialog.Root>
  )
}
