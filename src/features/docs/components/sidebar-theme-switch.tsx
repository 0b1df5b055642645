import { themeOptions } from '#/components/theme-menu'
import { useThemeChoice } from '#/components/theme-provider'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'

/** The Light / Dark / System button group at the foot of the docs sidebar; the same theme state as the header. */
export function SidebarThemeSwitch({ className }: { className?: string }) {
  const { theme, setTheme } = useThemeChoice()
  return (
    <fieldset
      data-testid="sidebar-theme-switch"
      className={cn('inline-flex items-center rounded-full border p-1', className)}
    >
      <legend className="sr-only">{m.theme_menu_label()}</legend>
      {themeOptions.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-label={option.label()}
          aria-pressed={theme === option.value}
          onClick={() => setTheme(option.value)}
          className={cn(
            'size-6.5 rounded-full p-1.5 outline-none focus-visible:ring-2 focus-visible:ring-fd-ring',
            theme === option.value ? 'bg-fd-accent text-fd-accent-foreground' : 'text-fd-muted-foreground',
          )}
        >
          <option.icon className="size-full" aria-hidden />
        </button>
      ))}
    </fieldset>
  )
}
