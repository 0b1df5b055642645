import { useMutation } from '@tanstack/react-query'
import { columnVisibilityFeature, createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table'
import { type RefObject, useMemo, useRef } from 'react'
import { toast } from 'sonner'
import { DataTable } from '#/components/data-table'
import { DetailsSection } from '#/components/details-layout'
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

interface RevokeOne {
  pending: boolean
  revoke: (sessionId: string) => void
}

/**
 * Made once per language: cells are components to TanStack Table, so new functions would remount every cell. The
 * revoke action is read through a ref for the same reason.
 */
function sessionColumns(locale: string, revokeOne: RefObject<RevokeOne>) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  return column.columns([
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
          disabled={revokeOne.current.pending}
          onClick={() => revokeOne.current.revoke(row.original.id)}
        >
          {m.users_session_revoke()}
        </Button>
      ),
    }),
  ])
}

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
  const current: RevokeOne = { pending: revoke.isPending, revoke: (sessionId) => revoke.mutate({ userId, sessionId }) }
  const revokeOne = useRef(current)
  revokeOne.current = current
  const locale = currentIntlLocale()
  const columns = useMemo(() => sessionColumns(locale, revokeOne), [locale])
  const table = useTable({ features, columns, data: sessions, getRowId: (session) => session.id })
  return (
    <DetailsSection
      title={m.users_section_sessions()}
      action={
        sessions.length > 0 ? (
          <Button
            size="sm"
            variant="outline"
            disabled={revokeAll.isPending}
            onClick={() => revokeAll.mutate({ userId })}
          >
            {m.users_sessions_revoke_all()}
          </Button>
        ) : null
      }
    >
      {sessions.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.users_no_sessions()}</p>
      ) : (
        <DataTable table={table} loading={false} testId="user-sessions" rowTestId="user-session-row" />
      )}
    </DetailsSection>
  )
}
