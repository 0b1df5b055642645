import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { Suspense } from 'react'
import { toast } from 'sonner'
import { PageHeader } from '#/components/page-header'
import { SettingsSection } from '#/components/settings-section'
import { consoleApps } from '#/console-apps.gen'
import { toastError } from '#/lib/error-toast'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { AppRouter } from '#/server/trpc/root'
import type { SystemSearch } from '../search'
import { KeptEmailsSection } from './kept-emails-section'
import { LaunchChecklistSection } from './launch-checklist-section'
import { RetryItem } from './retry-item'

type SystemOutputs = inferRouterOutputs<AppRouter>['system']
type Status = SystemOutputs['status']
type Jobs = SystemOutputs['jobs']

/** The installed apps' sections of this page (their console manifests' `systemSections`), after the jobs. */
const appSections = consoleApps.flatMap((app) => app.systemSections ?? [])

const momentFormat = () => new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
const numberFormat = () => new Intl.NumberFormat(currentIntlLocale())

/**
 * For app admins: what this server runs, its background jobs (retry what failed), the email outbox and the emails
 * kept without SMTP.
 */
export function SystemScreen({
  search,
  onSearchChange,
}: {
  search: SystemSearch
  onSearchChange: (change: Partial<SystemSearch>, options?: { replace?: boolean }) => void
}) {
  const trpc = useTRPC()
  const status = useQuery(trpc.system.status.queryOptions())
  const jobs = useQuery({ ...trpc.system.jobs.queryOptions(), refetchInterval: 10_000 })
  return (
    <div className="max-w-4xl">
      <PageHeader title={m.console_system()} description={m.system_description()} />
      <LaunchChecklistSection />
      <ServerSection status={status.data} />
      <ServersSection status={status.data} />
      <JobsSection jobs={jobs.data} />
      {appSections.map((Section, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the installed apps' sections never change order
        <Suspense key={index}>
          <Section />
        </Suspense>
      ))}
      <OutboxSection jobs={jobs.data} />
      <KeptEmailsSection search={search} onSearchChange={onSearchChange} />
    </div>
  )
}

function ServerSection({ status }: { status: Status | undefined }) {
  const number = numberFormat()
  return (
    <SettingsSection id="system-server" title={m.system_server_title()}>
      {status ? (
        <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid="system-server">
          <dt className="text-muted-foreground">{m.system_database()}</dt>
          <dd>
            {status.database.engine === 'postgres' ? 'PostgreSQL' : m.system_engine_pglite()} ·{' '}
            {m.system_migrations({ count: number.format(Number(status.database.appliedMigrations)) })}
          </dd>
          <dt className="text-muted-foreground">{m.system_backups()}</dt>
          <dd className="[overflow-wrap:anywhere]" data-testid="system-backups">
            {status.backups.latest
              ? `${momentFormat().format(status.backups.latest.at)} · ${formatFileSize(status.backups.latest.bytes, currentIntlLocale())} · ${status.backups.latest.location}`
              : m.system_backups_none()}
            {status.backups.lastFailure ? (
              <span className="block text-destructive">
                {m.system_backups_failed({
                  time: momentFormat().format(status.backups.lastFailure.at),
                  reason: status.backups.lastFailure.error,
                })}
              </span>
            ) : null}
          </dd>
          <dt className="text-muted-foreground">{m.system_backups_schedule()}</dt>
          <dd className="[overflow-wrap:anywhere]">
            {status.backups.schedule === 'off'
              ? m.system_backups_off()
              : m.system_backups_schedule_value({
                  schedule: status.backups.schedule,
                  where: status.backups.destination,
                })}
          </dd>
          <dt className="text-muted-foreground">Redis</dt>
          <dd>{status.services.get('redis') ? m.system_configured() : m.system_not_configured()}</dd>
          <dt className="text-muted-foreground">{m.system_version()}</dt>
          <dd className="font-mono text-xs leading-5">
            {status.version.version}
            {status.version.commit ? ` (${status.version.commit})` : ''}
          </dd>
          <dt className="text-muted-foreground">{m.system_running_since()}</dt>
          <dd>{momentFormat().format(status.startedAt)}</dd>
          <dt className="text-muted-foreground">{m.system_uptime()}</dt>
          <dd>{durationText(status.serverTime.getTime() - status.startedAt.getTime())}</dd>
        </dl>
      ) : null}
    </SettingsSection>
  )
}

function ServersSection({ status }: { status: Status | undefined }) {
  const moment = momentFormat()
  return (
    <SettingsSection id="system-servers" title={m.system_servers_title()} subtitle={m.system_servers_subtitle()}>
      {status?.servers.length ? (
        <ul className="mt-3 grid gap-2" data-testid="system-servers">
          {status.servers.map((server) => (
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
      ) : status ? (
        <p className="mt-3 text-sm text-muted-foreground">{m.system_servers_none()}</p>
      ) : null}
    </SettingsSection>
  )
}

function JobsSection({ jobs }: { jobs: Jobs | undefined }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const retryJob = useMutation(
    trpc.system.retryJob.mutationOptions({
      onSuccess: () => {
        toast.success(m.system_job_retried())
        void queryClient.invalidateQueries({ queryKey: trpc.system.jobs.queryKey() })
      },
      onError: toastError,
    }),
  )
  const moment = momentFormat()
  const number = numberFormat()
  return (
    <SettingsSection id="system-jobs" title={m.system_jobs_title()} subtitle={m.system_jobs_subtitle()}>
      {jobs && !jobs.queueRunning ? (
        <p className="mt-3 text-sm text-muted-foreground">{m.system_queue_not_running()}</p>
      ) : null}
      {jobs && jobs.queues.length > 0 ? <QueuesTable queues={jobs.queues} /> : null}
      <h3 className="mt-5 text-sm font-medium">{m.system_failed_title()}</h3>
      {jobs?.failedJobs.length ? (
        <ul className="mt-2 grid gap-2" data-testid="system-failed-jobs">
          {jobs.failedJobs.map((job) => (
            <RetryItem
              key={job.id}
              retryLabel={m.system_retry()}
              pending={retryJob.isPending}
              onRetry={() => retryJob.mutate({ id: job.id })}
              error={job.error}
            >
              <p className="font-mono text-xs">{job.name}</p>
              <p className="text-muted-foreground">
                {moment.format(job.createdAt)} · {m.system_attempts({ count: number.format(job.attempts) })}
              </p>
            </RetryItem>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-muted-foreground">{m.system_failed_none()}</p>
      )}
    </SettingsSection>
  )
}

function QueuesTable({ queues }: { queues: Jobs['queues'] }) {
  const number = numberFormat()
  const heading = 'h-9 px-2 sm:px-3 font-medium whitespace-nowrap'
  const count = 'px-2 py-2 sm:px-3 text-end tabular-nums'
  return (
    <div className="mt-3 overflow-x-auto rounded-lg border">
      <table className="w-full text-sm" data-testid="system-queues">
        <thead className="border-b bg-muted/50 text-left text-muted-foreground">
          <tr>
            <th scope="col" className={heading}>
              {m.system_col_job()}
            </th>
            <th scope="col" className={`${heading} text-end`}>
              {m.system_col_waiting()}
            </th>
            <th scope="col" className={`${heading} text-end`}>
              {m.system_col_running()}
            </th>
            <th scope="col" className={`${heading} text-end`}>
              {m.system_col_failed()}
            </th>
          </tr>
        </thead>
        <tbody>
          {queues.map((queue) => (
            <tr key={queue.name} className="border-b last:border-0">
              <td className="px-2 py-2 sm:px-3 font-mono text-xs">{queue.name}</td>
              <td className={count}>{number.format(queue.queued)}</td>
              <td className={count}>{number.format(queue.active)}</td>
              <td className={count}>{number.format(queue.failed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function OutboxSection({ jobs }: { jobs: Jobs | undefined }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const retryEmail = useMutation(
    trpc.system.retryEmail.mutationOptions({
      onSuccess: (_, { id }) => {
        const to = jobs?.deadEmails.find((email) => email.id === id)?.to ?? ''
        toast.success(m.system_email_retried({ to }))
        void queryClient.invalidateQueries({ queryKey: trpc.system.jobs.queryKey() })
      },
      onError: toastError,
    }),
  )
  const moment = momentFormat()
  const number = numberFormat()
  return (
    <SettingsSection id="system-outbox" title={m.system_outbox_title()}>
      {jobs ? (
        <p className="mt-3 text-sm" data-testid="system-outbox-counts">
          {m.system_outbox_counts({
            sent: number.format(jobs.outbox.sent),
            queued: number.format(jobs.outbox.queued),
            held: number.format(jobs.outbox.held),
            dead: number.format(jobs.outbox.dead),
          })}
        </p>
      ) : null}
      <h3 className="mt-5 text-sm font-medium">{m.system_dead_title()}</h3>
      {jobs?.deadEmails.length ? (
        <ul className="mt-2 grid gap-2" data-testid="system-dead-emails">
          {jobs.deadEmails.map((email) => (
            <RetryItem
              key={email.id}
              retryLabel={m.system_retry()}
              ariaLabel={m.system_retry_email({ to: email.to })}
              pending={retryEmail.isPending}
              onRetry={() => retryEmail.mutate({ id: email.id })}
              error={email.lastError}
            >
              <p className="font-medium [overflow-wrap:anywhere]">{email.subject}</p>
              <p className="text-muted-foreground [overflow-wrap:anywhere]">
                {email.to} · {moment.format(email.createdAt)} ·{' '}
                {m.system_attempts({ count: number.format(email.attempts) })}
              </p>
            </RetryItem>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-muted-foreground">{m.system_dead_none()}</p>
      )}
    </SettingsSection>
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
