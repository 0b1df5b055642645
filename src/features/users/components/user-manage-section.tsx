import { useMutation } from '@tanstack/react-query'
import { BanIcon, KeyRoundIcon, MailIcon, Trash2Icon, UserCheckIcon, VenetianMaskIcon } from 'lucide-react'
import { useId, useState } from 'react'
import { toast } from 'sonner'
import { DetailsSection } from '#/components/details-layout'
import { Button } from '#/components/ui/button'
import { NativeSelect } from '#/components/ui/select'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { describeError } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { AppRole } from '../search'
import type { UserDetails } from '../user-queries'
import { BanUserDialog, DeleteUserDialog, SetPasswordDialog } from './user-dialogs'

type User = UserDetails['user']

/** What an admin can do to an account: its role, ban, password and emails, acting as the person, deleting it. */
export function UserManageSection({ details, onChange }: { details: UserDetails; onChange: () => Promise<unknown> }) {
  const { user } = details
  const [dialog, setDialog] = useState<'ban' | 'password' | 'delete' | null>(null)
  const dialogProps = (name: 'ban' | 'password' | 'delete') => ({
    user,
    open: dialog === name,
    onOpenChange: (open: boolean) => setDialog(open ? name : null),
    onDone: onChange,
  })
  const isAdmin = user.role.split(',').includes('admin')
  // Admins do not ban, act as or delete themselves.
  const canActOn = !details.isSelf
  return (
    <DetailsSection title={m.users_section_manage()}>
      <div className="flex flex-wrap items-end gap-3">
        <UserRoleSelect user={user} isAdmin={isAdmin} onChange={onChange} />
        {canActOn ? <BanButton user={user} onBan={() => setDialog('ban')} onChange={onChange} /> : null}
        {!user.isAnonymous ? (
          <AccountEmailButtons user={user} onSetPassword={() => setDialog('password')} onChange={onChange} />
        ) : null}
        {canActOn && !isAdmin && !user.banned ? <ImpersonateButton userId={user.id} /> : null}
        {canActOn ? (
          <Button variant="destructive" onClick={() => setDialog('delete')}>
            <Trash2Icon aria-hidden />
            {m.users_delete()}
          </Button>
        ) : null}
      </div>
      {canActOn && !isAdmin ? <p className="mt-3 text-xs text-muted-foreground">{m.users_impersonate_hint()}</p> : null}
      <BanUserDialog {...dialogProps('ban')} />
      <SetPasswordDialog {...dialogProps('password')} />
      <DeleteUserDialog {...dialogProps('delete')} />
    </DetailsSection>
  )
}

const toastError = (error: unknown) => toast.error(describeError(error))

function UserRoleSelect({
  user,
  isAdmin,
  onChange,
}: {
  user: User
  isAdmin: boolean
  onChange: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const setRole = useMutation(trpc.users.setRole.mutationOptions({ onError: toastError, onSuccess: onChange }))
  const id = useId()
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {m.users_field_role()}
      </label>
      <NativeSelect
        id={id}
        className="w-40"
        value={isAdmin ? 'admin' : 'user'}
        disabled={setRole.isPending || user.isAnonymous}
        onChange={(event) => setRole.mutate({ userId: user.id, role: event.target.value as AppRole })}
      >
        <option value="user">{m.users_role_user()}</option>
        <option value="admin">{m.users_role_admin()}</option>
      </NativeSelect>
    </div>
  )
}

/** Ban opens the dialog that asks why and for how long; a ban already in place is lifted at once. */
function BanButton({ user, onBan, onChange }: { user: User; onBan: () => void; onChange: () => Promise<unknown> }) {
  const trpc = useTRPC()
  const unban = useMutation(trpc.users.unban.mutationOptions({ onError: toastError, onSuccess: onChange }))
  return user.banned ? (
    <Button variant="outline" onClick={() => unban.mutate({ userId: user.id })} disabled={unban.isPending}>
      <UserCheckIcon aria-hidden />
      {m.users_unban()}
    </Button>
  ) : (
    <Button variant="outline" onClick={onBan}>
      <BanIcon aria-hidden />
      {m.users_ban()}
    </Button>
  )
}

function AccountEmailButtons({
  user,
  onSetPassword,
  onChange,
}: {
  user: User
  onSetPassword: () => void
  onChange: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const sent = () => {
    toast.success(m.users_email_sent())
    return onChange()
  }
  const sendVerification = useMutation(
    trpc.users.sendVerificationEmail.mutationOptions({ onError: toastError, onSuccess: sent }),
  )
  const sendPassword = useMutation(
    trpc.users.sendPasswordEmail.mutationOptions({ onError: toastError, onSuccess: sent }),
  )
  return (
    <>
      <Button variant="outline" onClick={onSetPassword}>
        <KeyRoundIcon aria-hidden />
        {m.users_set_password()}
      </Button>
      {!user.emailVerified ? (
        <Button
          variant="outline"
          onClick={() => sendVerification.mutate({ userId: user.id })}
          disabled={sendVerification.isPending}
        >
          <MailIcon aria-hidden />
          {m.users_send_verification()}
        </Button>
      ) : null}
      <Button
        variant="outline"
        onClick={() => sendPassword.mutate({ userId: user.id })}
        disabled={sendPassword.isPending}
      >
        <MailIcon aria-hidden />
        {m.users_send_password_email()}
      </Button>
    </>
  )
}

function ImpersonateButton({ userId }: { userId: string }) {
  const impersonate = async () => {
    const { error } = await authClient.admin.impersonateUser({ userId })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    // A full load: every part of the page must now read the other person's session.
    window.location.assign(localizeHref('/console'))
  }
  return (
    <Button variant="outline" onClick={impersonate}>
      <VenetianMaskIcon aria-hidden />
      {m.users_impersonate()}
    </Button>
  )
}
