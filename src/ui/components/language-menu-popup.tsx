import { Menu } from '@ark-ui/react/menu'
import { useLingui } from '@lingui/react/macro'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button, menu } from 'styled-system/recipes'
import { LANGUAGES, type Language } from '../../../contract'
import { useAppActors } from '../app-context'
import { LANGUAGE_NAMES } from '../i18n'
import { CheckIcon, GlobeIcon } from './icons'

/** The Ark menu of the language switcher, loaded on first intent by `LanguageMenu`. */
export default function LanguageMenuPopup({ defaultOpen }: { defaultOpen: boolean }) {
  const { language } = useAppActors()
  const current = useSelector(language, (s) => s.context.language)
  // The name starts with what the button shows ("EN"), as WCAG 2.5.3 asks.
  const code = current.toUpperCase()
  const { t } = useLingui()
  const classes = menu()
  return (
    <Menu.Root positioning={{ placement: 'bottom-end', strategy: 'fixed' }} defaultOpen={defaultOpen}>
      <Menu.Trigger
        className={button({ variant: 'ghost', size: 'sm' })}
        aria-label={t`${code} — Change language`}
      >
        <GlobeIcon />
        <span className={css({ textTransform: 'uppercase' })}>{current}</span>
      </Menu.Trigger>
      <Menu.Positioner>
        <Menu.Content className={classes.content}>
          <Menu.RadioItemGroup
            value={current}
            onValueChange={(d) => language.send({ type: 'language.change', language: d.value as Language })}
          >
            {LANGUAGES.map((lng) => (
              <Menu.RadioItem key={lng} value={lng} className={classes.item}>
                <span className={cx(classes.itemIndicator)}>
                  <Menu.ItemIndicator>
                    <CheckIcon />
                  </Menu.ItemIndicator>
                </span>
                <Menu.ItemText lang={lng}>{LANGUAGE_NAMES[lng]}</Menu.ItemText>
              </Menu.RadioItem>
            ))}
          </Menu.RadioItemGroup>
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}
