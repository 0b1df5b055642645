import { useInfiniteQuery } from '@tanstack/react-query'
import { ActivityIcon } from 'lucide-react'
import { EmptyState } from '#/components/empty-state'
import { PageHeader } from '#/components/page-header'
import { Button } from '#/components/ui/button'
import { useConsoleSession } from '#/lib/console-session'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { rolesLabel } from '#/lib/role-labels'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'

type Details = Record<string, string>

/** One sentence per recorded action (src/server/auth/organization-activity.ts), in the reader's language. */
const sentences: Record<string, (actor: string, details: Details) => string> = {
  organization_created: (actor, d) => m.activity_organization_created({ actor, name: d.name ?? '' }),
  organization_updated: (actor, d) => m.activity_organization_updated({ actor, name: d.name ?? '' }),
  member_invited: (actor, d) =>
    m.activity_member_invited({ actor, email: d.email ?? '', role: rolesLabel(d.role ?? '') }),
  invitation_canceled: (actor, d) => m.activity_invitation_canceled({ actor, email: d.email ?? '' }),
  invitation_rejected: (actor, d) => m.activity_invitation_rejected({ actor, email: d.email ?? '' }),
  member_joined: (actor, d) => m.activity_member_joined({ actor, role: rolesLabel(d.role ?? '') }),
  member_added: (actor, d) => m.activity_member_added({ actor, name: d.name ?? '', role: rolesLabel(d.role ?? '') }),
  member_removed: (actor, d) => m.activity_member_removed({ actor, name: d.name ?? '' }),
  member_left: (actor) => m.activity_member_left({ actor }),
  member_role_changed: (actor, d) =>
    m.activity_member_role_changed({
      actor,
      name: d.name ?? '',
      from: rolesLabel(d.from ?? ''),
      to: rolesLabel(d.to ?? ''),
    }),
  ownership_transferred: (actor, d) => m.activity_ownership_transferred({ actor, name: d.name ?? '' }),
  team_created: (actor, d) => m.activity_team_created({ actor, team: d.team ?? '' }),
  team_renamed: (actor, d) => m.activity_team_renamed({ actor, team: d.team ?? '' }),
  team_deleted: (actor, d) => m.activity_team_deleted({ actor, team: d.team ?? '' }),
  team_member_added: (actor, d) => m.activity_team_member_added({ actor, name: d.name ?? '', team: d.team ?? '' }),
  team_member_removed: (actor, d) => m.activity_team_member_removed({ actor, name: d.name ?? '', team: d.team ?? '' }),
  role_created: (actor, d) => m.activity_role_created({ actor, role: d.role ?? '' }),
  role_updated: (actor, d) => m.activity_role_updated({ actor, role: d.role ?? '' }),
  role_deleted: (actor, d) => m.activity_role_deleted({ actor, role: d.role ?? '' }),
}

export function describeActivity(action: string, actor: string, details: Details): string {
  return Object.hasOwn(sentences, action)
    ? (sentences[action]?.(actor, details) ?? action)
    : m.activity_other({ actor })
}

/** Who did what in the active organization, newest first, 20 at a time (owners and admins). */
export function ActivityLog() {
  const { organization } = useConsoleSession()
  const trpc = useTRPC()
  const query = useInfiniteQuery(
    trpc.organizations.activity.infiniteQueryOptions(
      { limit: 20 },
      { getNextPageParam: (page) => page.nextCursor, initialCursor: undefined },
    ),
  )
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
  const entries = query.data?.pages.flatMap((page) => page.items) ?? []
  return (
    <div className="max-w-3xl">
      <PageHeader
        title={m.activity_title()}
        description={m.activity_description({ organization: organization.name })}
      />
      {query.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          {m.loading()}
        </p>
      ) : query.isError ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 p-4 text-sm"
        >
          <span>{describeError(query.error)}</span>
          <Button variant="outline" size="sm" onClick={() => query.refetch()}>
            {m.retry()}
          </Button>
        </div>
      ) : entries.length === 0 ? (
        <EmptyState icon={ActivityIcon} title={m.activity_empty_title()}>
          {m.activity_empty()}
        </EmptyState>
      ) : (
        <>
          <ol className="divide-y rounded-xl border" data-testid="activity-list">
            {entries.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3 sm:p-4">
                <span>{describeActivity(entry.action, entry.actorName, entry.details)}</span>
                <time dateTime={new Date(entry.createdAt).toISOString()} className="text-sm text-muted-foreground">
                  {date.format(new Date(entry.createdAt))}
                </time>
              </li>
            ))}
          </ol>
          {query.hasNextPage ? (
            <Button
              variant="outline"
              className="mt-4"
              disabled={query.isFetchingNextPage}
              onClick={() => query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? m.loading() : m.activity_load_more()}
            </Button>
          ) : null}
        </>
      )}
    </div>
  )
}
