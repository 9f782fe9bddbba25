import { Menu } from '@ark-ui/react/menu'
import { useLingui } from '@lingui/react/macro'
import { button, menu } from 'styled-system/recipes'
import { useAppActors } from '../../app-context'
import { UploadIcon } from '../../components/icons'
import type { PopupProps } from '../../components/lazy-on-intent'
import { uploadLabel } from './upload-label'

/** The Ark menu of the header's Upload dropdown, loaded on first intent by `UploadMenu`. */
export default function UploadMenuPopup({ defaultOpen }: PopupProps) {
  const { uploadDialog } = useAppActors()
  const { t } = useLingui()
  const classes = menu()
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end', strategy: 'fixed' }}
      defaultOpen={defaultOpen}
      onSelect={(d) =>
        uploadDialog?.send({ type: d.value === 'document' ? 'dialog.openDocument' : 'dialog.openInvoice' })
      }
    >
      <Menu.Trigger className={button({ variant: 'solid', size: 'sm' })}>
        <UploadIcon />
        <span className={uploadLabel}>{t`Upload`}</span>
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content className={classes.content}>
          <Menu.Item value="invoice" className={classes.item}>
            {t`Upload invoice`}
          </Menu.Item>
          <Menu.Item value="document" className={classes.item}>
            {t`Upload document`}
          </Menu.Item>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}
