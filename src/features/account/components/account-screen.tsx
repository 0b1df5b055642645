import { initialsOf, type SessionUser } from '#/lib/session-user'
import { m } from '#/paraglide/messages'

export function AccountScreen({ user }: { user: SessionUser }) {
  return (
    <div className="max-w-2xl">
      <h1 className="text-2xl font-semibold tracking-tight">{m.account_title()}</h1>
      <p className="mt-1 text-muted-foreground">{m.account_subtitle()}</p>
      <section aria-labelledby="profile-title" className="mt-8 rounded-xl border p-6">
        <h2 id="profile-title" className="font-semibold">
          {m.account_profile()}
        </h2>
        <div className="mt-4 flex items-center gap-4">
          {user.image ? (
            <img src={user.image} alt="" className="size-14 rounded-full object-cover" />
          ) : (
            <span className="flex size-14 items-center justify-center rounded-full bg-secondary text-lg font-semibold">
              {initialsOf(user.name)}
            </span>
          )}
          <dl className="grid gap-1 text-sm">
            <dt className="sr-only">{m.auth_name_label()}</dt>
            <dd className="text-base font-medium" data-testid="account-name">
              {user.name}
            </dd>
            <dt className="sr-only">{m.auth_email_label()}</dt>
            <dd data-testid="account-email">
              {user.email}{' '}
              <span className="rounded-full border px-2 py-0.5 text-xs text-muted-foreground">
                {user.emailVerified ? m.account_email_verified() : m.account_email_unverified()}
              </span>
            </dd>
            <dt className="sr-only">{m.auth_username_label()}</dt>
            <dd className="text-muted-foreground" data-testid="account-username">
              {user.username ? `@${user.username}` : m.account_no_username()}
            </dd>
          </dl>
        </div>
      </section>
    </div>
  )
}
