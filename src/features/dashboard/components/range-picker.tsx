import { type ReactNode, useId } from 'react'
import { Input } from '#/components/ui/input'
import { NativeSelect } from '#/components/ui/select'
import { m } from '#/paraglide/messages'
import { rangeProblemText } from '../dashboard-errors'
import { formatDay } from '../dashboard-format'
import type { DashboardRange } from '../dashboard-queries'
import { type Granularity, granularities, type RangePreset, rangePresets } from '../date-range'
import type { DashboardSearch } from '../search'

const presetLabels: Record<RangePreset, () => string> = {
  '7d': m.dashboard_range_7d,
  '30d': m.dashboard_range_30d,
  '90d': m.dashboard_range_90d,
  '12m': m.dashboard_range_12m,
  custom: m.dashboard_range_custom,
}

const granularityLabels: Record<Granularity, () => string> = {
  day: m.dashboard_granularity_day,
  week: m.dashboard_granularity_week,
  month: m.dashboard_granularity_month,
}

function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </label>
      {children}
    </div>
  )
}

/**
 * Which days the dashboard shows and how they are grouped. Everything lives in the address, so a reload or a shared
 * link shows the same; an impossible custom range is explained here and nothing is fetched for it.
 */
export function RangePicker({
  range,
  onChange,
}: {
  range: DashboardRange
  onChange: (change: Partial<DashboardSearch>, options?: { replace?: boolean }) => void
}) {
  const presetId = useId()
  const fromId = useId()
  const toId = useId()
  const granularityId = useId()
  const problemId = useId()
  const custom = range.preset === 'custom'
  const invalid = range.problem !== undefined
  return (
    <search aria-label={m.dashboard_period_controls()} className="flex flex-wrap items-end gap-3">
      <Field label={m.dashboard_range_label()} id={presetId}>
        <NativeSelect
          id={presetId}
          className="w-44"
          value={range.preset}
          onChange={(event) => {
            const preset = event.target.value as RangePreset
            // Custom starts from the days on screen, so switching to it changes nothing until a date is edited.
            onChange(
              preset === 'custom'
                ? { range: preset, from: range.from, to: range.to }
                : { range: preset, from: undefined, to: undefined },
            )
          }}
        >
          {rangePresets.map((preset) => (
            <option key={preset} value={preset}>
              {presetLabels[preset]()}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {custom ? (
        <>
          <Field label={m.dashboard_range_from()} id={fromId}>
            <Input
              id={fromId}
              type="date"
              className="w-40"
              value={range.from}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? problemId : undefined}
              onChange={(event) => {
                if (event.target.value)
                  onChange({ range: 'custom', from: event.target.value, to: range.to }, { replace: true })
              }}
            />
          </Field>
          <Field label={m.dashboard_range_to()} id={toId}>
            <Input
              id={toId}
              type="date"
              className="w-40"
              value={range.to}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? problemId : undefined}
              onChange={(event) => {
                if (event.target.value)
                  onChange({ range: 'custom', from: range.from, to: event.target.value }, { replace: true })
              }}
            />
          </Field>
        </>
      ) : null}
      <Field label={m.dashboard_granularity_label()} id={granularityId}>
        <NativeSelect
          id={granularityId}
          className="w-32"
          value={range.granularity}
          onChange={(event) => onChange({ granularity: event.target.value as Granularity })}
        >
          {granularities.map((granularity) => (
            <option key={granularity} value={granularity}>
              {granularityLabels[granularity]()}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {invalid ? (
        <p
          id={problemId}
          role="alert"
          className="basis-full text-sm text-destructive"
          data-testid="dashboard-range-error"
        >
          {rangeProblemText(range.problem ?? '')}
        </p>
      ) : (
        <p className="pb-2 text-sm text-muted-foreground" data-testid="dashboard-range">
          {m.dashboard_range_days({ from: formatDay(range.from), to: formatDay(range.to) })}
        </p>
      )}
    </search>
  )
}
