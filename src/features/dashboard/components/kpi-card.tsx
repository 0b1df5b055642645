import { ArrowDownRightIcon, ArrowRightIcon, ArrowUpRightIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { m } from '#/paraglide/messages'
import { changeRatio, formatChange } from '../dashboard-format'

/** A headline number: its label, its value (with a test id to read it by), and a line under it. */
export function KpiCard({
  label,
  value,
  testId,
  hint,
  change,
}: {
  label: string
  value: string
  testId: string
  hint?: ReactNode
  /** This period's and the previous period's numbers, to show the change between them. */
  change?: { current: number; previous: number }
}) {
  return (
    <div className="min-w-0 rounded-xl border p-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tracking-tight tabular-nums break-words" data-testid={testId}>
        {value}
      </dd>
      {change ? (
        <dd className="mt-1 text-xs text-muted-foreground">
          <Change {...change} />
        </dd>
      ) : null}
      {hint ? <dd className="mt-1 text-xs text-muted-foreground">{hint}</dd> : null}
    </div>
  )
}

function Change({ current, previous }: { current: number; previous: number }) {
  const ratio = changeRatio(current, previous)
  if (ratio === null) return <>{current === 0 ? m.dashboard_change_flat() : m.dashboard_change_none()}</>
  const Icon = ratio > 0 ? ArrowUpRightIcon : ratio < 0 ? ArrowDownRightIcon : ArrowRightIcon
  return (
    <span className="inline-flex items-center gap-1">
      <Icon className="size-3.5" aria-hidden />
      {m.dashboard_change({ change: formatChange(ratio) })}
    </span>
  )
}

/** The grid KPI cards sit in: one column on a phone, two on a tablet, four on a wide screen. */
export function KpiGrid({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 xl:grid-cols-4">{children}</dl>
}
