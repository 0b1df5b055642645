import type * as React from 'react'
import { cloneElement, type ReactElement, type ReactNode, useEffect, useRef, useState } from 'react'

type MenuParts = typeof import('#/components/ui/dropdown-menu')

let menuParts: Promise<MenuParts> | undefined
/** One download for every menu on the page, started by the first hover or press. */
function loadMenuParts() {
  menuParts ??= import('#/components/ui/dropdown-menu')
  return menuParts
}

const keysThatOpen = new Set(['Enter', ' ', 'ArrowDown'])

type MenuButtonProps = {
  /** The button that opens the menu; shown at once, before the menu's code has loaded. */
  trigger: ReactElement<React.ComponentProps<'button'>>
  /** The menu's items, built from the dropdown parts once they have loaded. */
  children: (parts: MenuParts) => ReactNode
} & Pick<React.ComponentProps<MenuParts['DropdownMenuContent']>, 'align' | 'className' | 'onCloseAutoFocus'>

/**
 * A dropdown menu whose code (Radix's menu, popper and focus handling, ~30 KB gzip) loads when someone reaches for it
 * rather than with every public page. Until then the trigger is a plain button: hovering it starts the download, and a
 * press or an opening key asks for the menu, which then mounts open, as if the Radix trigger had been pressed.
 */
export function MenuButton({ trigger, children, ...contentProps }: MenuButtonProps) {
  const [parts, setParts] = useState<MenuParts>()
  const [openWhenLoaded, setOpenWhenLoaded] = useState(false)
  const triggerRef = useRef<HTMLButtonElement>(null)
  // The loaded trigger is a new element; whoever had focus on the plain one keeps it.
  const refocus = useRef(false)
  useEffect(() => {
    if (parts && refocus.current) triggerRef.current?.focus()
    refocus.current = false
  }, [parts])

  if (!parts) {
    const load = () =>
      void loadMenuParts().then((loaded) => {
        refocus.current = document.activeElement === triggerRef.current
        setParts(loaded)
      })
    const openSoon = () => {
      setOpenWhenLoaded(true)
      load()
    }
    return cloneElement(trigger, {
      ref: triggerRef,
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onPointerEnter: load,
      onPointerDown: (event: React.PointerEvent) => {
        if (event.button === 0 && !event.ctrlKey) openSoon()
      },
      onKeyDown: (event: React.KeyboardEvent) => {
        if (!keysThatOpen.has(event.key)) return
        event.preventDefault()
        openSoon()
      },
    })
  }

  const { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } = parts
  return (
    <DropdownMenu modal={false} defaultOpen={openWhenLoaded}>
      <DropdownMenuTrigger asChild>{cloneElement(trigger, { ref: triggerRef })}</DropdownMenuTrigger>
      <DropdownMenuContent {...contentProps}>{children(parts)}</DropdownMenuContent>
    </DropdownMenu>
  )
}
