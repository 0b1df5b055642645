import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ChevronDownIcon, LogOutIcon, UserPlusIcon } from 'lucide-react'
import { toast } from 'sonner'
import { PersonAvatar } from '#/components/person-avatar'
import { Button } from '#/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#/components/ui/dropdown-menu'
import { authPageHref } from '#/features/auth'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { authQueryKeys, useAuthRefresh } from '#/lib/auth-refresh'
import type { SessionUser } from '#/lib/session-user'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

interface DeviceAccount {
  sessionToken: string
  userId: string
  name: string
  email: string
  image: string | null
  isAnonymous: boolean
}

/** The accounts signed in on this browser (multi-session plugin), one per user. */
async function loadDeviceAccounts(): Promise<DeviceAccount[]> {
  const { data, error } = await authClient.multiSession.listDeviceSessions()
  if (error) throw new Error(describeAuthError(error))
  return data.map(({ session, user }) => ({
    sessionToken: session.token,
    userId: user.id,
    name: user.name,
    email: user.email,
    image: user.image ?? null,
    isAnonymous: Boolean((user as { isAnonymous?: boolean | null }).isAnonymous),
  }))
}

function displayName(account: { name: string; isAnonymous: boolean }) {
  return account.isAnonymous ? m.guest_name() : account.name
}

/** Ends every session of this browser (the multi-session plugin revokes them all on sign-out). */
async function signOutEverywhere() {
  const { error } = await authClient.signOut()
  if (error) {
    toast.error(describeAuthError(error))
    return
  }
  window.location.assign(localizeHref('/sign-in'))
}

/**
 * The signed-in user's menu: the current account, the browser's other signed-in accounts to switch to or sign out
 * of, "Add another account" and sign out.
 */
export function UserMenu({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient()
  const refresh = useAuthRefresh()
  const { data: accounts = [] } = useQuery({ queryKey: authQueryKeys.deviceSessions, queryFn: loadDeviceAccounts })
  const currentName = displayName(user)
  const others = accounts.filter((account) => account.userId !== user.id)
  const current = accounts.find((account) => account.userId === user.id)

  const switchTo = async (account: DeviceAccount) => {
    const { error } = await authClient.multiSession.setActive({ sessionToken: account.sessionToken })
    if (error) {
      toast.error(describeAuthError(error))
      await queryClient.invalidateQueries({ queryKey: authQueryKeys.deviceSessions })
      return
    }
    await refresh.userChanged()
    toast.success(m.switcher_switched({ name: displayName(account) }))
  }

  const signOutOf = async (account: DeviceAccount) => {
    const { error } = await authClient.multiSession.revoke({ sessionToken: account.sessionToken })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    toast.success(m.switcher_signed_out_of({ name: displayName(account) }))
    // Signing out of the current account makes another one current (or none: the console then goes to sign-in).
    if (account.userId === user.id) await refresh.userChanged()
    else await queryClient.invalidateQueries({ queryKey: authQueryKeys.deviceSessions })
  }

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="ml-2 gap-2 px-2" data-testid="console-user">
          {/* Named by its words, not aria-label: the visible name is then part of the accessible one (WCAG 2.5.3). */}
          <span className="sr-only">{m.switcher_menu_label({ name: currentName })}</span>
          <PersonAvatar person={user} testId="console-user-picture" />
          <span aria-hidden className="hidden max-w-40 truncate sm:inline">
            {currentName}
          </span>
          <ChevronDownIcon aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-72 max-w-[calc(100vw-1rem)]">
        <DropdownMenuLabel>{m.switcher_current()}</DropdownMenuLabel>
        <div className="flex items-center gap-2 px-2 pb-2 text-sm" data-testid="switcher-current">
          <PersonAvatar person={user} />
          <div className="min-w-0">
            <p className="truncate font-medium">{currentName}</p>
            {user.isAnonymous ? null : <p className="truncate text-muted-foreground">{user.email}</p>}
          </div>
        </div>
        {others.length > 0 ? (
          <>
            {current ? (
              <DropdownMenuItem onSelect={() => signOutOf(current)}>
                <LogOutIcon aria-hidden />
                {m.switcher_sign_out_of({ name: currentName })}
              </DropdownMenuItem>
            ) : null}
            <DropdownMenuSeparator />
            <DropdownMenuLabel>{m.switcher_other_accounts()}</DropdownMenuLabel>
            {others.map((account) => (
              <DropdownMenuGroup key={account.sessionToken} data-testid="switcher-account">
                <DropdownMenuItem
                  onSelect={() => switchTo(account)}
                  aria-label={m.switcher_switch_to({ name: displayName(account) })}
                >
                  <PersonAvatar person={account} size="sm" />
                  <span className="min-w-0">
                    <span className="block truncate">{displayName(account)}</span>
                    {account.isAnonymous ? null : (
                      <span className="block truncate text-xs text-muted-foreground">{account.email}</span>
                    )}
                  </span>
                </DropdownMenuItem>
                <DropdownMenuItem onSelect={() => signOutOf(account)} className="pl-10 text-muted-foreground">
                  {m.switcher_sign_out_of({ name: displayName(account) })}
                </DropdownMenuItem>
              </DropdownMenuGroup>
            ))}
          </>
        ) : null}
        {/* While a guest, signing in to another account would take over the guest's data (anonymous linking), not add a second account. */}
        {user.isAnonymous ? null : (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem asChild>
              <a href={authPageHref('/sign-in', localizeHref('/console'))}>
                <UserPlusIcon aria-hidden />
                {m.switcher_add_account()}
              </a>
            </DropdownMenuItem>
          </>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={signOutEverywhere}>
          <LogOutIcon aria-hidden />
          {others.length > 0 ? m.switcher_sign_out_all() : m.auth_sign_out()}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
