import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { SettingsSection } from '#/components/settings-section'
import { RetryItem } from '#/features/system'
import { toastError } from '#/lib/error-toast'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import '../billing-messages'

const momentFormat = () => new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
const numberFormat = () => new Intl.NumberFormat(currentIntlLocale())

/** Webhook events from the payment provider that failed to apply; replaying one applies it again. */
export default function FailingPaymentsSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
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
  const moment = momentFormat()
  const number = numberFormat()
  return (
    <SettingsSection id="system-payments" title={m.system_payments_title()} subtitle={m.system_payments_subtitle()}>
      {failingEvents.data?.length ? (
        <ul className="mt-3 grid gap-2" data-testid="system-failing-payments">
          {failingEvents.data.map((event) => (
            <RetryItem
              key={`${event.provider}:${event.id}`}
              retryLabel={m.system_payment_replay()}
              ariaLabel={m.system_payment_replay_label({ id: event.id })}
              pending={replayEvent.isPending}
              onRetry={() => replayEvent.mutate({ id: event.id })}
              error={event.lastError}
            >
              <p className="font-mono text-xs [overflow-wrap:anywhere]">
                {event.provider} · {event.type} · {event.id}
              </p>
              <p className="text-muted-foreground">
                {moment.format(event.receivedAt)} · {m.system_attempts({ count: number.format(event.attempts) })}
              </p>
            </RetryItem>
          ))}
        </ul>
      ) : failingEvents.data ? (
        <p className="mt-3 text-sm text-muted-foreground">{m.system_payments_none()}</p>
      ) : null}
    </SettingsSection>
  )
}
