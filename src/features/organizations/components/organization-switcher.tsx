import { CheckIcon, ChevronsUpDownIcon, PlusIcon } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { OrganizationAvatar } from '#/components/organization-avatar'
import { Button } from '#/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#/components/ui/dropdown-menu'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { useAuthRefresh } from '#/lib/auth-refresh'
import type { ConsoleSession, OrganizationSummary } from '#/lib/console-session'
import { oneFinalStop } from '#/lib/sentence'
import { m } from '#/paraglide/messages'
import { CreateOrganizationDialog } from './create-organization-dialog'

/** The header's organization menu: the active one, the others to switch to, and "Create organization". */
export function OrganizationSwitcher({ session }: { session: ConsoleSession }) {
  const refresh = useAuthRefresh()
  const [creating, setCreating] = useState(false)
  const active = session.organization

  const switchTo = async (organization: OrganizationSummary) => {
    const { error } = await authClient.organization.setActive({ organizationId: organization.id })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    await refresh.organizationSwitched()
    toast.success(oneFinalStop(m.org_switched({ name: organization.name })))
  }

  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" className="max-w-full justify-start gap-2 px-2" data-testid="organization-switcher">
            {/* Named by its words, not aria-label: the visible name is then part of the accessible one (WCAG 2.5.3). */}
            <span className="sr-only">{m.org_switcher_label({ name: active.name })}</span>
            <OrganizationAvatar organization={active} size="sm" />
            <span aria-hidden className="truncate font-medium">
              {active.name}
            </span>
            <ChevronsUpDownIcon className="shrink-0 text-muted-foreground" aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-72 max-w-[calc(100vw-1rem)]">
          <DropdownMenuLabel>{m.org_switcher_heading()}</DropdownMenuLabel>
          {session.organizations.map((organization) => (
            <DropdownMenuItem
              key={organization.id}
              onSelect={() => (organization.id === active.id ? undefined : switchTo(organization))}
              data-testid="organization-option"
            >
              <OrganizationAvatar organization={organization} size="sm" />
              <span className="min-w-0 flex-1 truncate">{organization.name}</span>
              {organization.id === active.id ? (
                <CheckIcon aria-label={m.org_switcher_active()} className="text-primary" />
              ) : null}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <PlusIcon aria-hidden />
            {m.org_create()}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} />
    </>
  )
}
