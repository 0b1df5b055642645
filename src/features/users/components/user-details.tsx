import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import {
  ArrowLeftIcon,
  BanIcon,
  KeyRoundIcon,
  MailIcon,
  Trash2Icon,
  UserCheckIcon,
  VenetianMaskIcon,
} from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { toast } from 'sonner'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { NativeSelect } from '#/components/ui/select'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { AppRole } from '../search'
import type { UserDetails } from '../user-queries'
import { auditEntryText } from './audit-labels'
import { UserAvatar, UserBadges } from './user-badges'
import { BanUserDialog, SetPasswordDialog } from './user-dialogs'
import { UserSessionsTable } from './user-sessions-table'

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  const id = useId()
  return (
    <section aria-labelledby={id} className="rounded-xl border p-4 sm:p-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="font-semibold">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  )
}

function methodLabel(providerId: string): string {
  if (providerId === 'credential') return m.users_method_password()
  if (providerId === 'github') return 'GitHub'
  if (providerId === 'google') return 'Google'
  return providerId
}

/** One account, for app admins: what it is, where it belongs, where it is signed in, and what admins did to it. */
export function UserDetailsScreen({ userId }: { userId: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const query = useQuery(trpc.users.get.queryOptions({ userId }))
  const [dialog, setDialog] = useState<'ban' | 'password' | 'delete' | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() })
  const onError = (error: unknown) => toast.error(describeError(error))
  const setRole = useMutation(trpc.users.setRole.mutationOptions({ onError, onSuccess: refresh }))
  const unban = useMutation(trpc.users.unban.mutationOptions({ onError, onSuccess: refresh }))
  const sendVerification = useMutation(
    trpc.users.sendVerificationEmail.mutationOptions({
      onError,
      onSuccess: () => {
        toast.success(m.users_email_sent())
        return refresh()
      },
    }),
  )
  const sendPassword = useMutation(
    trpc.users.sendPasswordEmail.mutationOptions({
      onError,
      onSuccess: () => {
        toast.success(m.users_email_sent())
        return refresh()
      },
    }),
  )
  const remove = useMutation(trpc.users.remove.mutationOptions({ onError }))
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })

  const back = (
    <Link
      to="/console/users"
      className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
    >
      <ArrowLeftIcon className="size-4" aria-hidden />
      {m.users_back()}
    </Link>
  )
  if (query.isError) {
    return (
      <div className="grid gap-4">
        {back}
        <p role="alert" className="text-destructive">
          {describeError(query.error)}
        </p>
      </div>
    )
  }
  const details: UserDetails | undefined = query.data
  if (!details) return <div className="h-64 animate-pulse rounded-lg bg-muted" aria-hidden />
  const { user } = details
  const isAdmin = user.role.split(',').includes('admin')
  const canActOn = !details.isSelf

  const impersonate = async () => {
    const { error } = await authClient.admin.impersonateUser({ userId: user.id })
    if (error) {
      toast.error(describeAuthError(error))
      return
    }
    // A full load: every part of the page must now read the other person's session.
    window.location.assign(localizeHref('/console'))
  }

  return (
    <article className="grid min-w-0 grid-cols-1 gap-6 [&>*]:min-w-0">
      {back}
      <header className="flex flex-wrap items-start gap-4">
        <UserAvatar name={user.name} image={user.image} />
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold tracking-tight break-words">{user.name}</h1>
          <p className="break-all text-muted-foreground">{user.isAnonymous ? m.users_status_guest() : user.email}</p>
          <div className="mt-2">
            <UserBadges user={user} />
          </div>
        </div>
      </header>

      {user.banned ? (
        <div
          role="status"
          className="rounded-lg border border-destructive/40 bg-destructive/10 p-4 text-sm"
          data-testid="ban-notice"
        >
          <p className="font-medium">
            {user.banExpires ? m.users_banned_until({ date: date.format(user.banExpires) }) : m.users_banned_forever()}
          </p>
          <p className="mt-1 break-words">{m.users_ban_reason_shown({ reason: user.banReason ?? '' })}</p>
        </div>
      ) : null}

      <Section title={m.users_section_manage()}>
        <div className="flex flex-wrap items-end gap-3">
          <RoleSelect
            value={isAdmin ? 'admin' : 'user'}
            disabled={setRole.isPending || user.isAnonymous}
            onChange={(role) => setRole.mutate({ userId: user.id, role })}
          />
          {canActOn ? (
            user.banned ? (
              <Button variant="outline" onClick={() => unban.mutate({ userId: user.id })} disabled={unban.isPending}>
                <UserCheckIcon aria-hidden />
                {m.users_unban()}
              </Button>
            ) : (
              <Button variant="outline" onClick={() => setDialog('ban')}>
                <BanIcon aria-hidden />
                {m.users_ban()}
              </Button>
            )
          ) : null}
          {!user.isAnonymous ? (
            <>
              <Button variant="outline" onClick={() => setDialog('password')}>
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
          ) : null}
          {canActOn && !isAdmin && !user.banned ? (
            <Button variant="outline" onClick={impersonate}>
              <VenetianMaskIcon aria-hidden />
              {m.users_impersonate()}
            </Button>
          ) : null}
          {canActOn ? (
            <Button variant="destructive" onClick={() => setDialog('delete')}>
              <Trash2Icon aria-hidden />
              {m.users_delete()}
            </Button>
          ) : null}
        </div>
        {canActOn && !isAdmin ? (
          <p className="mt-3 text-xs text-muted-foreground">{m.users_impersonate_hint()}</p>
        ) : null}
      </Section>

      <Section title={m.users_section_details()}>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Fact label={m.users_fact_username()}>{user.username ? `@${user.username}` : '—'}</Fact>
          <Fact label={m.users_fact_joined()}>{date.format(user.createdAt)}</Fact>
          <Fact label={m.users_fact_verified()}>
            {user.emailVerified ? m.users_verified_yes() : m.users_verified_no()}
          </Fact>
          <Fact label={m.users_fact_two_factor()}>
            {user.twoFactorEnabled ? m.users_verified_yes() : m.users_verified_no()}
          </Fact>
          <Fact label={m.users_fact_methods()}>
            {details.signInMethods.length > 0 ? details.signInMethods.map(methodLabel).join(', ') : '—'}
          </Fact>
        </dl>
      </Section>

      <Section title={m.users_section_organizations()}>
        {details.organizations.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.users_no_organizations()}</p>
        ) : (
          <ul className="grid gap-2 text-sm" data-testid="user-organizations">
            {details.organizations.map((organization) => (
              <li key={organization.id} className="flex flex-wrap justify-between gap-2">
                <span className="font-medium break-words">{organization.name}</span>
                <span className="text-muted-foreground">
                  {rolesLabel(organization.role)} · {m.users_joined_on({ date: date.format(organization.joinedAt) })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <UserSessionsTable userId={user.id} sessions={details.sessions} onChange={refresh} />

      <Section title={m.users_section_history()}>
        {details.history.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.users_no_history()}</p>
        ) : (
          <ol className="grid gap-2 text-sm" data-testid="user-history">
            {details.history.map((entry) => (
              <li key={entry.id} className="flex flex-wrap justify-between gap-2">
                <span className="break-words">{auditEntryText(entry)}</span>
                <time className="text-muted-foreground" dateTime={entry.createdAt.toISOString()}>
                  {date.format(entry.createdAt)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </Section>

      <BanUserDialog
        user={user}
        open={dialog === 'ban'}
        onOpenChange={(open) => setDialog(open ? 'ban' : null)}
        onDone={refresh}
      />
      <SetPasswordDialog
        user={user}
        open={dialog === 'password'}
        onOpenChange={(open) => setDialog(open ? 'password' : null)}
        onDone={refresh}
      />
      <AlertDialog open={dialog === 'delete'} onOpenChange={(open) => setDialog(open ? 'delete' : null)}>
        <AlertDialogContent>
          <AlertDialogTitle>{m.users_delete_title({ name: user.name })}</AlertDialogTitle>
          <AlertDialogDescription>{m.users_delete_body()}</AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>{m.users_cancel()}</AlertDialogCancel>
            <AlertDialogAction
              className="bg-destructive text-white hover:bg-destructive/90"
              onClick={async () => {
                await remove.mutateAsync({ userId: user.id })
                toast.success(m.users_deleted_toast({ name: user.name }))
                await refresh()
                await navigate({ to: '/console/users' })
              }}
            >
              {m.users_delete_confirm()}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </article>
  )
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  )
}

function RoleSelect({
  value,
  disabled,
  onChange,
}: {
  value: AppRole
  disabled: boolean
  onChange: (role: AppRole) => void
}) {
  const id = useId()
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {m.users_field_role()}
      </label>
      <NativeSelect
        id={id}
        className="w-40"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as AppRole)}
      >
        <option value="user">{m.users_role_user()}</option>
        <option value="admin">{m.users_role_admin()}</option>
      </NativeSelect>
    </div>
  )
}
