import { useMutation } from '@tanstack/react-query'
import { columnVisibilityFeature, createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table'
import { toast } from 'sonner'
import { DataTable } from '#/components/data-table'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { describeUserAgent } from '#/lib/user-agent'
import { m } from '#/paraglide/messages'
import type { UserDetails } from '../user-queries'

type SessionRow = UserDetails['sessions'][number]
const features = tableFeatures({ columnVisibilityFeature })
const column = createColumnHelper<typeof features, SessionRow>()

/** Where the user is signed in now; an admin can end one session or all of them. */
export function UserSessionsTable({
  userId,
  sessions,
  onChange,
}: {
  userId: string
  sessions: SessionRow[]
  onChange: () => Promise<unknown>
}) {
  const trpc = useTRPC()
  const onError = (error: unknown) => toast.error(describeError(error))
  const revoke = useMutation(trpc.users.revokeSession.mutationOptions({ onError, onSuccess: onChange }))
  const revokeAll = useMutation(
    trpc.users.revokeAllSessions.mutationOptions({
      onError,
      onSuccess: () => {
        toast.success(m.users_sessions_revoked())
        return onChange()
      },
    }),
  )
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
  const columns = column.columns([
    column.accessor('userAgent', {
      header: m.users_session_device,
      cell: ({ row }) => {
        const device = describeUserAgent(row.original.userAgent)
        return (
          <span>
            {device
              ? m.users_session_device_value({ browser: device.browser, os: device.os })
              : m.users_session_unknown()}
            {row.original.impersonatedBy ? (
              <span className="ml-2 rounded-full bg-secondary px-2 py-0.5 text-xs">
                {m.users_session_impersonated()}
              </span>
            ) : null}
          </span>
        )
      },
    }),
    column.accessor('ipAddress', { header: m.users_session_ip, cell: (info) => info.getValue() ?? '—' }),
    column.accessor('updatedAt', { header: m.users_session_last_active, cell: (info) => date.format(info.getValue()) }),
    column.accessor('createdAt', { header: m.users_session_started, cell: (info) => date.format(info.getValue()) }),
    column.display({
      id: 'revoke',
      header: () => null,
      cell: ({ row }) => (
        <Button
          size="sm"
          variant="outline"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate({ userId, sessionId: row.original.id })}
        >
          {m.users_session_revoke()}
        </Button>
      ),
    }),
  ])
  const table = useTable({ features, columns, data: sessions, getRowId: (session) => session.id })
  return (
    <section aria-labelledby="user-sessions-title" className="rounded-xl border p-4 sm:p-6">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="user-sessions-title" className="font-semibold">
          {m.users_section_sessions()}
        </h2>
        {sessions.length > 0 ? (
          <Button
            size="sm"
            variant="outline"
            disabled={revokeAll.isPending}
            onClick={() => revokeAll.mutate({ userId })}
          >
            {m.users_sessions_revoke_all()}
          </Button>
        ) : null}
      </div>
      {sessions.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.users_no_sessions()}</p>
      ) : (
        <DataTable table={table} loading={false} testId="user-sessions" rowTestId="user-session-row" />
      )}
    </section>
  )
}
