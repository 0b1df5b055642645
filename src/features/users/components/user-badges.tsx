import { m } from '#/paraglide/messages'

const badge = 'rounded-full px-2 py-0.5 text-xs whitespace-nowrap'

/** Banned, unverified, guest, two-factor: what an admin should notice about an account at a glance. */
export function UserBadges({
  user,
}: {
  user: { banned: boolean; emailVerified: boolean; isAnonymous: boolean; twoFactorEnabled: boolean }
}) {
  return (
    <ul className="flex flex-wrap gap-1">
      {user.banned ? (
        <li className={`${badge} bg-destructive/15 text-destructive`} data-testid="user-banned">
          {m.users_status_banned()}
        </li>
      ) : (
        <li className={`${badge} bg-secondary text-secondary-foreground`}>{m.users_status_active()}</li>
      )}
      {user.isAnonymous ? (
        <li className={`${badge} bg-secondary text-secondary-foreground`}>{m.users_status_guest()}</li>
      ) : user.emailVerified ? null : (
        <li className={`${badge} border text-muted-foreground`}>{m.users_status_unverified()}</li>
      )}
      {user.twoFactorEnabled ? (
        <li className={`${badge} border text-muted-foreground`}>{m.users_status_two_factor()}</li>
      ) : null}
    </ul>
  )
}
