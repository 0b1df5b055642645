import { MonitorIcon, MoonIcon, SunIcon } from 'lucide-react'
import { MenuButton } from '#/components/menu-button'
import { Button } from '#/components/ui/button'
import { isThemeChoice } from '#/lib/theme'
import { m } from '#/paraglide/messages'
import { useThemeChoice } from './theme-provider'

export const themeOptions = [
  { value: 'light', icon: SunIcon, label: () => m.theme_light() },
  { value: 'dark', icon: MoonIcon, label: () => m.theme_dark() },
  { value: 'system', icon: MonitorIcon, label: () => m.theme_system() },
] as const

export function ThemeMenu() {
  const { theme, setTheme } = useThemeChoice()
  const current = themeOptions.find((option) => option.value === theme) ?? themeOptions[0]
  return (
    <MenuButton
      align="end"
      trigger={
        <Button variant="ghost" size="icon" aria-label={m.theme_menu_label()} title={m.theme_menu_label()}>
          <current.icon aria-hidden />
        </Button>
      }
    >
      {({ DropdownMenuRadioGroup, DropdownMenuRadioItem }) => (
        <DropdownMenuRadioGroup value={theme} onValueChange={(value) => isThemeChoice(value) && setTheme(value)}>
          {themeOptions.map((option) => (
            <DropdownMenuRadioItem key={option.value} value={option.value}>
              <option.icon aria-hidden />
              {option.label()}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      )}
    </MenuButton>
  )
}
