import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { RotateCcwIcon } from 'lucide-react'
import { toast } from 'sonner'
import { PageHeader } from '#/components/page-header'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'

/** For app admins: what this server runs, its background jobs (retry what failed) and the email outbox. */
export function SystemScreen() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery(trpc.system.status.queryOptions())
  const jobs = useQuery({ ...trpc.system.jobs.queryOptions(), refetchInterval: 10_000 })
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.system.jobs.queryKey() })
  const retryEmail = useMutation(
    trpc.system.retryEmail.mutationOptions({
      onSuccess: (_, { id }) => {
        const to = jobs.data?.deadEmails.find((email) => email.id === id)?.to ?? ''
        toast.success(m.system_email_retried({ to }))
        void refresh()
      },
      onError: toastError,
    }),
  )
  const retryJob = useMutation(
    trpc.system.retryJob.mutationOptions({
      onSuccess: () => {
        toast.success(m.system_job_retried())
        void refresh()
      },
      onError: toastError,
    }),
  )
  const failingEvents = useQuery({ ...trpc.billing.failingEvents.queryOptions(), refetchInterval: 10_000 })
  const replayEvent = useMutation(
    trpc.billing.replayEvent.mutationOptions({
      onSuccess: (_, { id }) => {
        toast.success(m.system_payment_replayed({ id }))
        void queryClient.invalidateQueries({ queryKey: trpc.billing.failingEvents.queryKey() })
      },
      onError: toastError,
    }),
  )
  const moment = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
  const number = new Intl.NumberFormat(currentIntlLocale())

  return (
    <div className="max-w-4xl">
      <PageHeader title={m.console_system()} description={m.system_description()} />

      <SettingsSection id="system-server" title={m.system_server_title()}>
        {status.data ? (
          <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid="system-server">
            <dt className="text-muted-foreground">{m.system_database()}</dt>
            <dd>
              {status.data.database.engine === 'postgres' ? 'PostgreSQL' : m.system_engine_pglite()} ·{' '}
              {m.system_migrations({ count: number.format(Number(status.data.database.appliedMigrations)) })}
            </dd>
            <dt className="text-muted-foreground">Redis</dt>
            <dd>{status.data.services.get('redis') ? m.system_configured() : m.system_not_configured()}</dd>
            <dt className="text-muted-foreground">{m.system_version()}</dt>
            <dd className="font-mono text-xs leading-5">
              {status.data.version.version}
              {status.data.version.commit ? ` (${status.data.version.commit})` : ''}
            </dd>
            <dt className="text-muted-foreground">{m.system_running_since()}</dt>
            <dd>{moment.format(status.data.startedAt)}</dd>
            <dt className="text-muted-foreground">{m.system_uptime()}</dt>
            <dd>{durationText(status.data.serverTime.getTime() - status.data.startedAt.getTime())}</dd>
          </dl>
        ) : null}
      </SettingsSection>

      <SettingsSection id="system-servers" title={m.system_servers_title()} subtitle={m.system_servers_subtitle()}>
        {status.data?.servers.length ? (
          <ul className="mt-3 grid gap-2" data-testid="system-servers">
            {status.data.servers.map((server) => (
              <li
                key={server.id}
                className="flex flex-wrap items-baseline justify-between gap-x-4 rounded-lg border p-3 text-sm"
              >
                <span className="font-mono text-xs [overflow-wrap:anywhere]">
                  {server.hostname} · pid {server.pid}
                  {server.thisOne ? (
                    <span className="ms-2 font-sans text-muted-foreground">{m.system_server_this()}</span>
                  ) : null}
                </span>
                <span className="text-muted-foreground">
                  {server.version} · {m.system_server_started({ time: moment.format(server.startedAt) })}
                </span>
              </li>
            ))}
          </ul>
        ) : status.data ? (
          <p className="mt-3 text-sm text-muted-foreground">{m.system_servers_none()}</p>
        ) : null}
      </SettingsSection>

      <SettingsSection id="system-jobs" title={m.system_jobs_title()} subtitle={m.system_jobs_subtitle()}>
        {jobs.data && !jobs.data.queueRunning ? (
          <p className="mt-3 text-sm text-muted-foreground">{m.system_queue_not_running()}</p>
        ) : null}
        {jobs.data && jobs.data.queues.length > 0 ? (
          <div className="mt-3 overflow-x-auto rounded-lg border">
            <table className="w-full text-sm" data-testid="system-queues">
              <thead className="border-b bg-muted/50 text-left text-muted-foreground">
                <tr>
                  <th scope="col" className="h-9 px-2 sm:px-3 font-medium whitespace-nowrap">
                    {m.system_col_job()}
                  </th>
                  <th scope="col" className="h-9 px-2 sm:px-3 text-end font-medium whitespace-nowrap">
                    {m.system_col_waiting()}
                  </th>
                  <th scope="col" className="h-9 px-2 sm:px-3 text-end font-medium whitespace-nowrap">
                    {m.system_col_running()}
                  </th>
                  <th scope="col" className="h-9 px-2 sm:px-3 text-end font-medium whitespace-nowrap">
                    {m.system_col_failed()}
                  </th>
                </tr>
              </thead>
              <tbody>
                {jobs.data.queues.map((queue) => (
                  <tr key={queue.name} className="border-b last:border-0">
                    <td className="px-2 py-2 sm:px-3 font-mono text-xs">{queue.name}</td>
                    <td className="px-2 py-2 sm:px-3 text-end tabular-nums">{number.format(queue.queued)}</td>
                    <td className="px-2 py-2 sm:px-3 text-end tabular-nums">{number.format(queue.active)}</td>
                    <td className="px-2 py-2 sm:px-3 text-end tabular-nums">{number.format(queue.failed)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <h3 className="mt-5 text-sm font-medium">{m.system_failed_title()}</h3>
        {jobs.data?.failedJobs.length ? (
          <ul className="mt-2 grid gap-2" data-testid="system-failed-jobs">
            {jobs.data.failedJobs.map((job) => (
              <li
                key={job.id}
                className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3 text-sm"
              >
                <div className="min-w-0">
                  <p className="font-mono text-xs">{job.name}</p>
                  <p className="text-muted-foreground">
                    {moment.format(job.createdAt)} · {m.system_attempts({ count: number.format(job.attempts) })}
                  </p>
                  {job.error ? <p className="mt-1 [overflow-wrap:anywhere] text-destructive">{job.error}</p> : null}
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={retryJob.isPending}
                  onClick={() => retryJob.mutate({ id: job.id })}
                >
                  <RotateCcwIcon aria-hidden />
                  {m.system_retry()}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-muted-foreground">{m.system_failed_none()}</p>
        )}
      </SettingsSection>

      <SettingsSection id="system-payments" title={m.system_payments_title()} subtitle={m.system_payments_subtitle()}>
        {failingEvents.data?.length ? (
          <ul className="mt-3 grid gap-2" data-testid="system-failing-payments">
            {failingEvents.data.map((event) => (
              <li
                key={`${event.provider}:${event.id}`}
                className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3 text-sm"
              >
                <div className="min-w-0">
                  <p className="font-mono text-xs [overflow-wrap:anywhere]">
                    {event.provider} · {event.type} · {event.id}
                  </p>
                  <p className="text-muted-foreground">
                    {moment.format(event.receivedAt)} · {m.system_attempts({ count: number.format(event.attempts) })}
                  </p>
                  {event.lastError ? (
                    <p className="mt-1 [overflow-wrap:anywhere] text-destructive">{event.lastError}</p>
                  ) : null}
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={replayEvent.isPending}
                  onClick={() => replayEvent.mutate({ id: event.id })}
                  aria-label={m.system_payment_replay_label({ id: event.id })}
                >
                  <RotateCcwIcon aria-hidden />
                  {m.system_payment_replay()}
                </Button>
              </li>
            ))}
          </ul>
        ) : failingEvents.data ? (
          <p className="mt-3 text-sm text-muted-foreground">{m.system_payments_none()}</p>
        ) : null}
      </SettingsSection>

      <SettingsSection id="system-outbox" title={m.system_outbox_title()}>
        {jobs.data ? (
          <p className="mt-3 text-sm" data-testid="system-outbox-counts">
            {m.system_outbox_counts({
              sent: number.format(jobs.data.outbox.sent),
              queued: number.format(jobs.data.outbox.queued),
              held: number.format(jobs.data.outbox.held),
              dead: number.format(jobs.data.outbox.dead),
            })}
          </p>
        ) : null}
        <h3 className="mt-5 text-sm font-medium">{m.system_dead_title()}</h3>
        {jobs.data?.deadEmails.length ? (
          <ul className="mt-2 grid gap-2" data-testid="system-dead-emails">
            {jobs.data.deadEmails.map((email) => (
              <li
                key={email.id}
                className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3 text-sm"
              >
                <div className="min-w-0">
                  <p className="font-medium [overflow-wrap:anywhere]">{email.subject}</p>
                  <p className="text-muted-foreground [overflow-wrap:anywhere]">
                    {email.to} · {moment.format(email.createdAt)} ·{' '}
                    {m.system_attempts({ count: number.format(email.attempts) })}
                  </p>
                  {email.lastError ? (
                    <p className="mt-1 [overflow-wrap:anywhere] text-destructive">{email.lastError}</p>
                  ) : null}
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={retryEmail.isPending}
                  onClick={() => retryEmail.mutate({ id: email.id })}
                  aria-label={m.system_retry_email({ to: email.to })}
                >
                  <RotateCcwIcon aria-hidden />
                  {m.system_retry()}
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-muted-foreground">{m.system_dead_none()}</p>
        )}
      </SettingsSection>
    </div>
  )
}

/**
 * "2 d 3 h" or "12 min": the two largest units of a duration (minutes at least). Built from messages, not from
 * Intl's unit formats, whose Chinese output differs between the server's ICU and the browser's (a hydration mismatch).
 */
function durationText(milliseconds: number): string {
  const minutes = Math.max(0, Math.floor(milliseconds / 60_000))
  const hours = Math.floor(minutes / 60)
  if (hours >= 24) return m.system_uptime_days({ days: Math.floor(hours / 24), hours: hours % 24 })
  if (hours >= 1) return m.system_uptime_hours({ hours, minutes: minutes % 60 })
  return m.system_uptime_minutes({ minutes })
}
