import { useQuery, useQueryClient } from '@tanstack/react-query'
import { DetailsFields, DetailsHeader, DetailsLayout, DetailsList, DetailsSection } from '#/components/details-layout'
import { OrganizationAvatar } from '#/components/organization-avatar'
import { PersonAvatar } from '#/components/person-avatar'
import { currentIntlLocale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { UserDetails } from '../user-queries'
import { auditEntryText } from './audit-labels'
import { UserBadges } from './user-badges'
import { UserManageSection } from './user-manage-section'
import { UserSessionsTable } from './user-sessions-table'

const dateTimeFormat = () => new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })

function methodLabel(providerId: string): string {
  if (providerId === 'credential') return m.users_method_password()
  if (providerId === 'github') return 'GitHub'
  if (providerId === 'google') return 'Google'
  return providerId
}

/** One account, for app admins: what it is, where it belongs, where it is signed in, and what admins did to it. */
export function UserDetailsScreen({ userId }: { userId: string }) {
  const trpc = useTRPC()
  const query = useQuery(trpc.users.get.queryOptions({ userId }))
  return (
    <DetailsLayout backTo="/console/users" backLabel={m.users_back()} query={query}>
      {(details) => <UserDetailsView details={details} />}
    </DetailsLayout>
  )
}

function UserDetailsView({ details }: { details: UserDetails }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  // The list of users shows the same account: both are read again after any change.
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() })
  const { user } = details
  return (
    <>
      <DetailsHeader
        media={<PersonAvatar person={user} size="lg" testId="user-details-picture" />}
        title={user.name}
        subtitle={user.isAnonymous ? m.users_status_guest() : user.email}
      >
        <UserBadges user={user} />
      </DetailsHeader>
      {user.banned ? <BanNotice user={user} /> : null}
      <UserManageSection details={details} onChange={refresh} />
      <UserFactsSection details={details} />
      <UserOrganizationsSection organizations={details.organizations} />
      <UserSessionsTable userId={user.id} sessions={details.sessions} onChange={refresh} />
      <UserHistorySection history={details.history} />
    </>
  )
}

function BanNotice({ user }: { user: UserDetails['user'] }) {
  return (
    <div
      role="status"
      className="rounded-lg border border-destructive/40 bg-destructive/10 p-4 text-sm"
      data-testid="ban-notice"
    >
      <p className="font-medium">
        {user.banExpires
          ? m.users_banned_until({ date: dateTimeFormat().format(user.banExpires) })
          : m.users_banned_forever()}
      </p>
      <p className="mt-1 break-words">{m.users_ban_reason_shown({ reason: user.banReason ?? '' })}</p>
    </div>
  )
}

function UserFactsSection({ details }: { details: UserDetails }) {
  const { user } = details
  const yesNo = (yes: boolean) => (yes ? m.users_verified_yes() : m.users_verified_no())
  return (
    <DetailsSection title={m.users_section_details()}>
      <DetailsFields
        fields={[
          { label: m.users_fact_username(), value: user.username ? `@${user.username}` : '—' },
          { label: m.users_fact_joined(), value: dateTimeFormat().format(user.createdAt) },
          { label: m.users_fact_verified(), value: yesNo(user.emailVerified) },
          { label: m.users_fact_two_factor(), value: yesNo(user.twoFactorEnabled) },
          {
            label: m.users_fact_methods(),
            value: details.signInMethods.length > 0 ? details.signInMethods.map(methodLabel).join(', ') : '—',
          },
        ]}
      />
    </DetailsSection>
  )
}

function UserOrganizationsSection({ organizations }: { organizations: UserDetails['organizations'] }) {
  const date = dateTimeFormat()
  return (
    <DetailsSection title={m.users_section_organizations()}>
      <DetailsList
        empty={m.users_no_organizations()}
        testId="user-organizations"
        items={organizations.map((organization) => ({
          key: organization.id,
          main: (
            <span className="flex items-center gap-2">
              <OrganizationAvatar organization={organization} size="sm" />
              <span className="font-medium">{organization.name}</span>
            </span>
          ),
          aside: `${rolesLabel(organization.role)} · ${m.users_joined_on({ date: date.format(organization.joinedAt) })}`,
        }))}
      />
    </DetailsSection>
  )
}

function UserHistorySection({ history }: { history: UserDetails['history'] }) {
  const date = dateTimeFormat()
  return (
    <DetailsSection title={m.users_section_history()}>
      <DetailsList
        ordered
        empty={m.users_no_history()}
        testId="user-history"
        items={history.map((entry) => ({
          key: entry.id,
          main: (
            <span className="flex items-start gap-2">
              <PersonAvatar person={{ name: entry.actorName, image: entry.actorImage }} size="sm" />
              <span>{auditEntryText(entry)}</span>
            </span>
          ),
          aside: <time dateTime={entry.createdAt.toISOString()}>{date.format(entry.createdAt)}</time>,
        }))}
      />
    </DetailsSection>
  )
}
