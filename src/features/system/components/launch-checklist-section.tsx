import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { CircleCheckIcon, CircleDashedIcon } from 'lucide-react'
import { toast } from 'sonner'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { getLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'

/**
 * "Before you launch": each item done or to do, with what the server found and the docs page that says how. The
 * email item carries "Send a test email", which goes through the outbox like every other email.
 */
export function LaunchChecklistSection() {
  const trpc = useTRPC()
  const locale = getLocale()
  const checklist = useQuery(trpc.system.launchChecklist.queryOptions({ locale }))
  const data = checklist.data
  return (
    <SettingsSection id="system-launch" title={m.system_launch_title()} subtitle={m.system_launch_subtitle()}>
      {data ? (
        <>
          <p className="mt-3 text-sm font-medium" data-testid="system-launch-count">
            {m.system_launch_count({ done: data.done, total: data.checks.length })}
          </p>
          <ul className="mt-3 grid gap-2" data-testid="system-launch-checks">
            {data.checks.map((check) => (
              <li
                key={check.id}
                data-check={check.id}
                data-state={check.done ? 'done' : 'todo'}
                className="flex items-start gap-3 rounded-lg border p-3 text-sm"
              >
                {check.done ? (
                  <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
                ) : (
                  <CircleDashedIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                )}
                <div className="min-w-0 flex-1">
                  <p className="font-medium">
                    {check.title}{' '}
                    <span className="ms-1 whitespace-nowrap rounded-md bg-muted px-1.5 py-0.5 text-xs font-normal text-muted-foreground">
                      {check.done ? m.system_launch_done() : m.system_launch_todo()}
                    </span>
                  </p>
                  <p className="mt-1 text-muted-foreground [overflow-wrap:anywhere]">{check.detail}</p>
                  {check.id === 'email' ? <SendTestEmailButton /> : null}
                </div>
                <a
                  href={localizeHref(check.docs)}
                  className="shrink-0 text-sm underline underline-offset-4"
                  aria-label={m.system_launch_read_docs_label({ item: check.title })}
                >
                  {m.system_launch_read_docs()}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </SettingsSection>
  )
}

function SendTestEmailButton() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const send = useMutation(
    trpc.system.sendTestEmail.mutationOptions({
      onSuccess: ({ to, kept }) => {
        toast.success(kept ? m.system_launch_test_email_kept({ to }) : m.system_launch_test_email_sent({ to }))
        void queryClient.invalidateQueries({ queryKey: trpc.system.jobs.queryKey() })
        void queryClient.invalidateQueries({ queryKey: trpc.system.keptEmails.queryKey() })
      },
      onError: toastError,
    }),
  )
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className="mt-2"
      disabled={send.isPending}
      onClick={() => send.mutate({ locale: getLocale() })}
    >
      {m.system_launch_send_test_email()}
    </Button>
  )
}
