import { Link } from '@tanstack/react-router'
import { apps } from '#/apps.gen'
import { appPlanLimits, writtenAmount } from '#/lib/app-plan-limits'
import { useCan } from '#/lib/console-session'
import { currentIntlLocale } from '#/lib/i18n'
import { planName } from '#/lib/plan-text'
import type { PlanId } from '#/lib/plans'
import { m } from '#/paraglide/messages'
import { formatCount } from '../dashboard-format'
import type { OrganizationDashboard } from '../dashboard-queries'
import { KpiCard, KpiGrid } from './kpi-card'

/** Where the plan is shown and changed, when an installed app sells plans (billing). */
const planPages = apps.find((app) => app.planPages)?.planPages

/** The active organization's own numbers, for its owners and admins: members, plan and usage. */
export function OrganizationSection({ data }: { data: OrganizationDashboard }) {
  const { organization, plan, usage, appUsage } = data
  const canSeeBilling = useCan(planPages?.readers ?? {}) && planPages !== undefined
  const planLabel = planName(plan.planId as PlanId)
  return (
    <section aria-labelledby="dashboard-organization-title" className="grid gap-4">
      <div>
        <h2 id="dashboard-organization-title" className="text-lg font-semibold">
          {m.dashboard_organization_title()}
        </h2>
        <p className="text-sm text-muted-foreground break-words" data-testid="dashboard-organization-name">
          {organization.name}
        </p>
      </div>
      <KpiGrid>
        <KpiCard
          label={m.dashboard_org_members()}
          value={formatCount(data.members)}
          testId="kpi-org-members"
          hint={
            data.pendingInvitations > 0
              ? m.dashboard_org_pending({ count: formatCount(data.pendingInvitations) })
              : undefined
          }
        />
        <KpiCard
          label={m.dashboard_col_plan()}
          value={
            plan.planId === 'team' && plan.seats !== null
              ? m.dashboard_org_plan_seats({ plan: planLabel, seats: formatCount(plan.seats) })
              : planLabel
          }
          testId="kpi-org-plan"
          hint={
            canSeeBilling ? (
              <Link to={planPages?.manage} className="font-medium text-primary underline-offset-4 hover:underline">
                {m.dashboard_org_view_billing()}
              </Link>
            ) : undefined
          }
        />
      </KpiGrid>
      <section aria-labelledby="dashboard-usage-title" className="rounded-xl border p-4">
        <h3 id="dashboard-usage-title" className="font-semibold">
          {m.billing_usage_title()}
        </h3>
        <dl className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Usage label={m.billing_usage_members()} {...usage.members} testId="usage-members" />
          <Usage label={m.billing_usage_ai_requests()} {...usage.aiRequests} testId="usage-ai-requests" />
          {appPlanLimits.map((limit) => {
            const amounts = appUsage[limit.name]
            return amounts ? (
              <Usage
                key={limit.name}
                label={limit.usage.label()}
                {...amounts}
                testId={`usage-${limit.name}`}
                format={(value) => writtenAmount(limit, value, currentIntlLocale())}
              />
            ) : null
          })}
          <div className="min-w-0">
            <dt className="text-sm text-muted-foreground">{m.billing_usage_ai_tokens()}</dt>
            <dd className="mt-1 font-medium tabular-nums" data-testid="usage-ai-tokens">
              {m.ai_tokens_in_out({
                input: formatCount(usage.aiTokens.inputTokens),
                output: formatCount(usage.aiTokens.outputTokens),
              })}
            </dd>
          </div>
        </dl>
      </section>
    </section>
  )
}

/** One limit: what is used of it, as text and as a bar (no bar for an unlimited one). */
function Usage({
  label,
  used,
  limit,
  testId,
  format = formatCount,
}: {
  label: string
  used: number
  limit: number | null
  testId: string
  /** How an amount is written: a count unless the limit says otherwise (a size). */
  format?: (value: number) => string
}) {
  const share = limit ? Math.min(1, used / limit) : 0
  return (
    <div className="min-w-0">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-medium tabular-nums" data-testid={testId}>
        {limit === null
          ? m.billing_usage_unlimited({ used: format(used) })
          : m.billing_usage_of({ used: format(used), limit: format(limit) })}
      </dd>
      {limit === null ? null : (
        <dd className="mt-2">
          <div
            role="progressbar"
            aria-label={label}
            aria-valuemin={0}
            aria-valuemax={limit}
            aria-valuenow={Math.min(used, limit)}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div
              className={
                share >= 1 ? 'h-full bg-destructive' : share >= 0.8 ? 'h-full bg-(--chart-4)' : 'h-full bg-primary'
              }
              style={{ width: `${share * 100}%` }}
            />
          </div>
        </dd>
      )}
    </div>
  )
}
