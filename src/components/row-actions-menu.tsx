import { useHydrated } from '@tanstack/react-router'
import { EllipsisIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '#/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '#/components/ui/dropdown-menu'

/**
 * A list row's menu of actions: the same "…" button, placement and keyboard behaviour on every list. Not modal, so
 * the page behind stays scrollable and focus returns to the button on close.
 *
 * The server renders the button alone: a menu cannot open before the page is hydrated anyway, and a Radix menu per
 * row was a fifth of a 25-row list's server render (docs/decisions/031).
 */
export function RowActionsMenu({ label, children }: { label: string; children: ReactNode }) {
  const hydrated = useHydrated()
  const button = (
    <Button variant="ghost" size="icon" aria-label={label} aria-haspopup="menu">
      <EllipsisIcon aria-hidden />
    </Button>
  )
  if (!hydrated) return button
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>{button}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">{children}</DropdownMenuContent>
    </DropdownMenu>
  )
}
