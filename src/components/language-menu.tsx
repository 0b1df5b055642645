import { LanguagesIcon } from 'lucide-react'
import { MenuButton } from '#/components/menu-button'
import { Button } from '#/components/ui/button'
import { getLocale, localeNames, locales } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import { isLocale, setLocale } from '#/paraglide/runtime'

/** Writes the `lang` cookie and loads the same page under the other language's prefix. */
export function LanguageMenu() {
  const current = getLocale()
  return (
    <MenuButton
      align="end"
      trigger={
        <Button variant="ghost" size="icon" aria-label={m.language_menu_label()} title={m.language_menu_label()}>
          <LanguagesIcon aria-hidden />
        </Button>
      }
    >
      {({ DropdownMenuRadioGroup, DropdownMenuRadioItem }) => (
        <DropdownMenuRadioGroup value={current} onValueChange={(value) => isLocale(value) && setLocale(value)}>
          {locales.map((locale) => (
            <DropdownMenuRadioItem key={locale} value={locale} lang={locale}>
              {localeNames[locale]}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      )}
    </MenuButton>
  )
}
