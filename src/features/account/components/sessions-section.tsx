import { useQuery, useQueryClient } from '@tanstack/react-query'
import { columnVisibilityFeature, createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table'
import { MonitorSmartphoneIcon } from 'lucide-react'
import { type RefObject, useMemo, useRef } from 'react'
import { toast } from 'sonner'
import { DataTable } from '#/components/data-table'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { authQueryKeys } from '#/lib/auth-refresh'
import { currentIntlLocale } from '#/lib/i18n'
import { describeUserAgent } from '#/lib/user-agent'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** The user's sessions, this browser's first, then the most recently active. */
async function loadSessions() {
  const [sessions, current] = await Promise.all([authClient.listSessions(), authClient.getSession()])
  if (sessions.error) throw new Error(describeAuthError(sessions.error))
  const currentToken = current.data?.session.token ?? null
  return (sessions.data ?? [])
    .map((session) => ({ ...session, isCurrent: session.token === currentToken }))
    .sort(
      (a, b) =>
        Number(b.isCurrent) - Number(a.isCurrent) || new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime(),
    )
}

type SessionRow = Awaited<ReturnType<typeof loadSessions>>[number]
type AuthResult = { error: Parameters<typeof describeAuthError>[0] | null }

const features = tableFeatures({ columnVisibilityFeature })
const column = createColumnHelper<typeof features, SessionRow>()

/**
 * Made once per language: cells are components to TanStack Table, so new functions would remount every cell. Signing
 * a session out is read through a ref for the same reason.
 */
function sessionColumns(locale: string, revoke: RefObject<(session: SessionRow) => void>) {
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  return column.columns([
    column.accessor('userAgent', {
      header: m.account_session_col_device,
      cell: ({ row }) => {
        const device = describeUserAgent(row.original.userAgent)
        return (
          <span className="flex min-w-40 items-center gap-2" data-current={row.original.isCurrent}>
            <MonitorSmartphoneIcon className="size-5 shrink-0 text-muted-foreground" aria-hidden />
            <span className="font-medium">
              {device ? `${device.browser} · ${device.os}` : m.account_session_unknown_device()}
            </span>
            {row.original.isCurrent ? (
              <span className="rounded-full border px-2 py-0.5 text-xs whitespace-nowrap">
                {m.account_session_this_device()}
              </span>
            ) : null}
          </span>
        )
      },
    }),
    column.accessor('ipAddress', { header: m.account_session_col_ip, cell: (info) => info.getValue() || '—' }),
    column.accessor('updatedAt', {
      header: m.account_session_col_last_active,
      cell: (info) => <span className="whitespace-nowrap">{time.format(new Date(info.getValue()))}</span>,
    }),
    column.accessor('createdAt', {
      header: m.account_session_col_started,
      cell: (info) => <span className="whitespace-nowrap">{time.format(new Date(info.getValue()))}</span>,
    }),
    column.display({
      id: 'revoke',
      header: () => null,
      // This browser's session ends by signing out (or "everywhere"), not from its own row.
      cell: ({ row }) =>
        row.original.isCurrent ? null : (
          <Button variant="outline" size="sm" onClick={() => revoke.current(row.original)}>
            {m.account_session_revoke()}
          </Button>
        ),
    }),
  ])
}

/** Where the user is signed in: end one other session, all the others, or every one of them. */
export function SessionsSection() {
  const queryClient = useQueryClient()
  const { data, isPending } = useQuery({ queryKey: authQueryKeys.sessions, queryFn: loadSessions })
  const refresh = () => queryClient.invalidateQueries({ queryKey: authQueryKeys.sessions })

  const run = async (action: () => Promise<AuthResult>, done: string) => {
    const { error } = await action()
    if (error) toast.error(describeAuthError(error))
    else toast.success(done)
    await refresh()
  }

  const signOutEverywhere = async () => {
    const { error } = await authClient.revokeSessions()
    if (error) toast.error(describeAuthError(error))
    else window.location.assign(localizeHref('/sign-in'))
  }

  const revokeOne = useRef<(session: SessionRow) => void>(() => undefined)
  revokeOne.current = (session) =>
    run(() => authClient.revokeSession({ token: session.token }), m.account_session_revoked())
  const locale = currentIntlLocale()
  const columns = useMemo(() => sessionColumns(locale, revokeOne), [locale])
  const table = useTable({ features, columns, data: data ?? [], getRowId: (session) => session.id })

  return (
    <div className="mt-4 grid gap-3">
      {isPending ? (
        <p role="status" className="sr-only">
          {m.loading_sessions()}
        </p>
      ) : null}
      <DataTable table={table} loading={isPending} testId="sessions-list" rowTestId="session-row" />
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() => run(() => authClient.revokeOtherSessions(), m.account_other_sessions_revoked())}
        >
          {m.account_revoke_other_sessions()}
        </Button>
        <Button variant="ghost" onClick={signOutEverywhere}>
          {m.account_revoke_all_sessions()}
        </Button>
      </div>
    </div>
  )
}
