import { SendIcon } from 'lucide-react'
import { Button } from '#/components/ui/button'
import { currentIntlLocale } from '#/lib/i18n'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'
import type { DeliveryStatus } from '../events'
import { type AttemptExchange, AttemptExchangeView } from './attempt-exchange'
import { attemptLabel, deliveryStatusLabels } from './webhook-labels'

export interface Delivery {
  id: string
  eventType: string
  payload: string
  status: string
  attempts: number
  createdAt: Date
  /** When a waiting delivery's next attempt is due, if one is queued. */
  nextAttemptAt: Date | null
  attemptLog: (AttemptExchange & { attemptedAt: Date; outcome: string; durationMs: number })[]
}

const moment = (date: Date | string) =>
  new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(date))

const statusTone: Record<string, string> = {
  delivered: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
  failed: 'bg-destructive/10 text-destructive',
  pending: 'bg-amber-500/15 text-amber-800 dark:text-amber-300',
  skipped: 'bg-muted text-muted-foreground',
}

/** One delivery, folded: its event, state and attempts; unfolded: every attempt, the payload and "send again". */
export function DeliveryItem({
  delivery,
  onSendAgain,
  sending,
}: {
  delivery: Delivery
  onSendAgain?: () => void
  sending: boolean
}) {
  return (
    <li data-testid="webhook-delivery">
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 p-3 hover:bg-accent/50">
          <code className="font-mono text-sm">{delivery.eventType}</code>
          <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium', statusTone[delivery.status])}>
            {deliveryStatusLabels[delivery.status as DeliveryStatus]?.() ?? delivery.status}
          </span>
          <span className="text-xs text-muted-foreground">
            {m.webhooks_delivery_attempts({ count: String(delivery.attempts) })}
          </span>
          <time className="ms-auto text-xs text-muted-foreground" dateTime={new Date(delivery.createdAt).toISOString()}>
            {moment(delivery.createdAt)}
          </time>
        </summary>
        <div className="grid grid-cols-[minmax(0,1fr)] gap-3 border-t bg-muted/20 p-3">
          <p className="font-mono text-xs break-all text-muted-foreground">{delivery.id}</p>
          {delivery.status === 'pending' && delivery.nextAttemptAt ? (
            <p className="text-sm" data-testid="next-attempt">
              {m.webhooks_next_attempt({ time: moment(delivery.nextAttemptAt) })}
            </p>
          ) : null}
          {delivery.attemptLog.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.webhooks_delivery_no_attempts()}</p>
          ) : (
            <ol className="grid grid-cols-[minmax(0,1fr)] gap-2">
              {delivery.attemptLog.map((attempt) => (
                <li
                  key={`${new Date(attempt.attemptedAt).getTime()}-${attempt.outcome}`}
                  className="rounded-md border bg-background p-2 text-sm"
                >
                  <div className="flex flex-wrap gap-x-3">
                    <span className={cn(attempt.outcome !== 'delivered' && 'text-destructive')}>
                      {attemptLabel(attempt)}
                    </span>
                    <span className="text-muted-foreground">
                      {m.webhooks_attempt_duration({ ms: String(attempt.durationMs) })}
                    </span>
                    <time className="ms-auto text-xs text-muted-foreground">{moment(attempt.attemptedAt)}</time>
                  </div>
                  <AttemptExchangeView attempt={attempt} />
                </li>
              ))}
            </ol>
          )}
          <div>
            <p className="mb-1 text-xs font-medium text-muted-foreground">{m.webhooks_delivery_payload()}</p>
            <pre className="max-h-64 overflow-auto rounded bg-muted/50 p-2 text-xs">{delivery.payload}</pre>
          </div>
          {onSendAgain ? (
            <div>
              <Button variant="outline" size="sm" onClick={onSendAgain} disabled={sending}>
                <SendIcon aria-hidden />
                {m.webhooks_resend()}
              </Button>
            </div>
          ) : null}
        </div>
      </details>
    </li>
  )
}
