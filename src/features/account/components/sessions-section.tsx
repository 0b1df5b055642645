import { useQuery, useQueryClient } from '@tanstack/react-query'
import { MonitorSmartphoneIcon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { authClient } from '#/lib/auth-client'
import { describeAuthError } from '#/lib/auth-errors'
import { authQueryKeys } from '#/lib/auth-refresh'
import { currentIntlLocale } from '#/lib/i18n'
import { describeUserAgent } from '#/lib/user-agent'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/** The user's sessions and which one is this browser's. */
async function loadSessions() {
  const [sessions, current] = await Promise.all([authClient.listSessions(), authClient.getSession()])
  if (sessions.error) throw new Error(describeAuthError(sessions.error))
  return { sessions: sessions.data ?? [], currentToken: current.data?.session.token ?? null }
}

export function SessionsSection() {
  const queryClient = useQueryClient()
  const { data, isPending } = useQuery({ queryKey: authQueryKeys.sessions, queryFn: loadSessions })
  const refresh = () => queryClient.invalidateQueries({ queryKey: authQueryKeys.sessions })
  const timeFormat = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })

  const run = async (
    action: () => Promise<{ error: Parameters<typeof describeAuthError>[0] | null }>,
    done: string,
  ) => {
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

  if (isPending || !data) return <p className="mt-4 text-sm text-muted-foreground">{m.loading_sessions()}</p>
  return (
    <div className="mt-4 grid gap-3">
      <ul className="divide-y rounded-lg border" data-testid="sessions-list">
        {data.sessions.map((session) => {
          const device = describeUserAgent(session.userAgent)
          const isCurrent = session.token === data.currentToken
          return (
            <li key={session.id} className="flex flex-wrap items-center gap-3 p-3 text-sm" data-current={isCurrent}>
              <MonitorSmartphoneIcon className="size-5 text-muted-foreground" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="font-medium">
                  {device ? `${device.browser} · ${device.os}` : m.account_session_unknown_device()}
                  {isCurrent ? (
                    <span className="ml-2 rounded-full border px-2 py-0.5 text-xs font-normal">
                      {m.account_session_this_device()}
                    </span>
                  ) : null}
                </p>
                <p className="text-muted-foreground">
                  {m.account_session_last_active({ time: timeFormat.format(new Date(session.updatedAt)) })}
                  {session.ipAddress ? ` · ${m.account_session_ip({ ip: session.ipAddress })}` : ''}
                </p>
              </div>
              {isCurrent ? null : (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() =>
                    run(() => authClient.revokeSession({ token: session.token }), m.account_session_revoked())
                  }
                >
                  {m.account_session_revoke()}
                </Button>
              )}
            </li>
          )
        })}
      </ul>
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
