import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { toast } from 'sonner'
import type { PageChange } from '#/components/list-pager'
import { PlanLimitReached } from '#/components/plan-limit-notice'
import { SettingsSection } from '#/components/settings-section'
import { Button } from '#/components/ui/button'
import { appPlanLimits, writtenAmount } from '#/lib/app-plan-limits'
import { describeError } from '#/lib/errors'
import { currentIntlLocale, getLocale } from '#/lib/i18n'
import { planName } from '#/lib/plan-text'
import type { PlanId } from '#/lib/plans'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { localizeHref } from '#/paraglide/runtime'
import type { AppRouter } from '#/server/trpc/root'
import { formatDay, money, planSummary, subscriptionStatusLabel } from '../billing-format'
import type { OrdersPageSearch } from '../search'
import { CancelOrResume } from './cancel-or-resume'
import { OrdersSection } from './orders-section'
import { PlanChanger, SeatsForm } from './subscription-forms'
import '../billing-messages'

/**
 * The active organization's billing: its plan (with renewal or end date), what it uses of the plan, and its orders.
 * Owners change it; admins read it; members see the plan's name only (the server answers each what it may see).
 */
export function BillingPanel({
  highlightedOrderId,
  showPortal,
  ordersPage,
  onOrdersPageChange,
}: {
  highlightedOrderId?: string
  showPortal: boolean
  /** The page of the orders list, from the address. */
  ordersPage: OrdersPageSearch
  onOrdersPageChange: (change: PageChange, options?: { replace?: boolean }) => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const overview = useQuery(trpc.billing.overview.queryOptions())
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.billing.overview.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.billing.orders.queryKey() }),
    ])

  if (overview.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <div className="h-32 animate-pulse rounded-xl bg-muted" />
        <div className="h-48 animate-pulse rounded-xl bg-muted" />
      </div>
    )
  }
  if (overview.error || !overview.data) {
    return <p className="text-sm text-destructive">{describeError(overview.error)}</p>
  }
  const { planId, details, canManage, limits } = overview.data

  if (!details) {
    return (
      <SettingsSection id="billing-plan" title={m.billing_plan_title()}>
        <p className="mt-3" data-testid="billing-plan-name">
          {m.billing_plan_is({ plan: planName(planId as PlanId) })}
        </p>
        <p className="mt-1 text-sm text-muted-foreground">{m.billing_members_ask_owner()}</p>
      </SettingsSection>
    )
  }

  const subscription = details.subscription
  return (
    <div className="min-w-0">
      <SettingsSection id="billing-plan" title={m.billing_plan_title()}>
        <div className="mt-3 flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <p className="text-lg font-semibold" data-testid="billing-plan-name">
              {subscription
                ? planSummary(subscription.planId, subscription.interval, subscription.seats)
                : planName('free')}
            </p>
            {subscription ? (
              <>
                <p className="text-sm text-muted-foreground" data-testid="billing-plan-status">
                  {subscriptionStatusLabel(subscription.status)} · {money(subscription.amount, subscription.currency)}
                </p>
                <p className="mt-1 text-sm" data-testid="billing-plan-renewal">
                  {subscription.cancelAtPeriodEnd
                    ? m.billing_ends_on({ date: formatDay(subscription.currentPeriodEnd) })
                    : m.billing_renews_on({ date: formatDay(subscription.currentPeriodEnd) })}
                </p>
              </>
            ) : (
              <p className="text-sm text-muted-foreground">{m.billing_free_explainer()}</p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            {!subscription && canManage ? (
              <>
                <Button asChild>
                  <a href={`${localizeHref('/checkout')}?plan=pro`}>
                    {m.billing_upgrade_to({ plan: planName('pro') })}
                  </a>
                </Button>
                <Button asChild variant="outline">
                  <a href={`${localizeHref('/checkout')}?plan=team`}>
                    {m.billing_upgrade_to({ plan: planName('team') })}
                  </a>
                </Button>
              </>
            ) : null}
            {subscription && canManage ? (
              <CancelOrResume
                cancelAtPeriodEnd={subscription.cancelAtPeriodEnd}
                plan={planSummary(subscription.planId, subscription.interval, subscription.seats)}
                periodEnd={formatDay(subscription.currentPeriodEnd)}
                onDone={refresh}
              />
            ) : null}
            {subscription?.hasPortal && canManage && showPortal ? <PortalButton /> : null}
          </div>
        </div>
        {subscription && canManage && !subscription.cancelAtPeriodEnd ? (
          <div className="mt-6 grid gap-6 border-t pt-6 md:grid-cols-2">
            <PlanChanger planId={subscription.planId} interval={subscription.interval} onDone={refresh} />
            {subscription.planId === 'team' ? (
              <SeatsForm seats={subscription.seats} placesTaken={limits.members.used} onDone={refresh} />
            ) : null}
          </div>
        ) : null}
        {subscription && canManage && subscription.cancelAtPeriodEnd ? (
          <p className="mt-4 border-t pt-4 text-sm text-muted-foreground" data-testid="billing-ending-explainer">
            {m.billing_ending_explainer()}
          </p>
        ) : null}
      </SettingsSection>

      <UsageSection planId={planId} limits={limits} usage={details.usage} />
      <OrdersSection
        highlightedOrderId={highlightedOrderId}
        ordersPage={ordersPage}
        onOrdersPageChange={onOrdersPageChange}
        canManage={canManage}
      />
    </div>
  )
}

type Overview = NonNullable<inferRouterOutputs<AppRouter>['billing']['overview']>

/** What the organization uses of its plan, and who used the AI how much this month. */
function UsageSection({
  planId,
  limits,
  usage,
}: {
  planId: PlanId
  limits: Overview['limits']
  usage: NonNullable<Overview['details']>['usage']
}) {
  return (
    <SettingsSection id="billing-usage" title={m.billing_usage_title()}>
      <dl className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Usage label={m.billing_usage_members()} {...limits.members} testId="usage-members" />
        <Usage label={m.billing_usage_ai_requests()} {...limits.aiRequests} testId="usage-ai" />
        {appPlanLimits.map((limit) => {
          const amounts = limits[limit.name]
          return amounts ? (
            <Usage
              key={limit.name}
              label={limit.usage.label()}
              {...amounts}
              testId={`usage-${limit.name}`}
              format={(value) => writtenAmount(limit, value, currentIntlLocale())}
              note={limit.usage.note?.(planId)}
            />
          ) : null
        })}
      </dl>
      {appPlanLimits.map((limit) => {
        const amounts = limits[limit.name]
        return amounts && amounts.limit !== null && amounts.used > amounts.limit ? (
          <div key={limit.name} className="mt-3">
            <PlanLimitReached name={limit.name} />
          </div>
        ) : null
      })}
      {limits.members.limit !== null && limits.members.used > limits.members.limit ? (
        <div className="mt-3">
          <PlanLimitReached name="members" />
        </div>
      ) : null}
      <AiUsage tokens={usage.aiTokens} byMember={usage.aiByMember} />
    </SettingsSection>
  )
}

interface TokenCounts {
  inputTokens: number
  outputTokens: number
}

/** This month's AI tokens, and who in the organization used how much. */
function AiUsage({
  tokens,
  byMember,
}: {
  tokens: TokenCounts
  byMember: (TokenCounts & { userId: string | null; name: string | null; requests: number })[]
}) {
  const count = (value: number) => new Intl.NumberFormat(currentIntlLocale()).format(value)
  return (
    <div className="mt-4 grid gap-3" data-testid="usage-ai-members">
      <p className="text-sm">
        <span className="text-muted-foreground">{m.billing_usage_ai_tokens()}: </span>
        <span className="font-semibold tabular-nums" data-testid="usage-ai-tokens">
          {m.ai_tokens_in_out({ input: count(tokens.inputTokens), output: count(tokens.outputTokens) })}
        </span>
      </p>
      <h3 className="text-sm font-medium">{m.billing_ai_by_member()}</h3>
      {byMember.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.billing_ai_no_usage()}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full text-sm">
            <thead className="bg-muted/50 text-left text-muted-foreground">
              <tr>
                <th className="px-3 py-2 font-medium">{m.billing_ai_member()}</th>
                <th className="px-3 py-2 text-right font-medium">{m.billing_ai_requests()}</th>
                <th className="px-3 py-2 text-right font-medium">{m.billing_ai_tokens()}</th>
              </tr>
            </thead>
            <tbody>
              {byMember.map((member) => (
                <tr key={member.userId ?? 'former'} className="border-t">
                  <td className="px-3 py-2">{member.name ?? m.billing_ai_former_member()}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{count(member.requests)}</td>
                  <td className="px-3 py-2 text-right tabular-nums whitespace-nowrap">
                    {count(member.inputTokens)} / {count(member.outputTokens)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}

function Usage({
  label,
  used,
  limit,
  testId,
  format = (value) => new Intl.NumberFormat(currentIntlLocale()).format(value),
  note,
}: {
  label: string
  used: number
  limit: number | null
  testId: string
  format?: (value: number) => string
  note?: string
}) {
  const count = format
  const over = limit !== null && used > limit
  return (
    <div
      className={`rounded-lg border p-3 ${over ? 'border-amber-500/60 bg-amber-500/10' : ''}`}
      data-testid={testId}
      data-over-limit={over || undefined}
    >
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-semibold tabular-nums">
        {limit === null
          ? m.billing_usage_unlimited({ used: count(used) })
          : m.billing_usage_of({ used: count(used), limit: count(limit) })}
      </dd>
      {note ? <dd className="mt-0.5 text-xs text-muted-foreground">{note}</dd> : null}
    </div>
  )
}

function PortalButton() {
  const trpc = useTRPC()
  const portal = useMutation(trpc.billing.portal.mutationOptions())
  const open = async () => {
    try {
      const { url } = await portal.mutateAsync({ locale: getLocale() })
      window.location.assign(url)
    } catch (error) {
      toast.error(describeError(error))
    }
  }
  return (
    <Button variant="outline" disabled={portal.isPending} onClick={() => void open()}>
      {m.billing_portal()}
    </Button>
  )
}
