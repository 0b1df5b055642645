import { type ComponentProps, type CSSProperties, createContext, type ReactNode, useContext } from 'react'
import type { LegendPayload, TooltipContentProps, TooltipPayloadEntry } from 'recharts'
import * as Recharts from 'recharts'
import { cn } from '#/lib/utils'

/**
 * What each series of a chart is called and how it is drawn: `color` is any CSS colour, usually a theme variable
 * (`var(--chart-1)`), so a chart follows the light and dark themes without knowing them. Inside the container each
 * series' colour is also `var(--color-<key>)`, for fills, strokes and the tooltip's markers.
 */
export type ChartConfig = Record<string, { label: ReactNode; color?: string; dashed?: boolean }>

const ChartContext = createContext<ChartConfig | null>(null)

export function useChartConfig(): ChartConfig {
  const config = useContext(ChartContext)
  if (!config) throw new Error('useChartConfig is used outside a ChartContainer')
  return config
}

/** A series key as a CSS custom property name: only letters, digits, '-' and '_' survive. */
function colorVariable(key: string): string {
  return `--color-${key.replace(/[^\w-]/g, '_')}`
}

/** Sizes a recharts chart to its box, themes its axes and grid, and gives every series its `--color-<key>`. */
export function ChartContainer({
  config,
  className,
  style,
  children,
  ...props
}: Omit<ComponentProps<'div'>, 'children'> & {
  config: ChartConfig
  children: ComponentProps<typeof Recharts.ResponsiveContainer>['children']
}) {
  const colors = Object.fromEntries(
    Object.entries(config).flatMap(([key, item]) => (item.color ? [[colorVariable(key), item.color]] : [])),
  ) as CSSProperties
  return (
    <ChartContext.Provider value={config}>
      <div
        data-slot="chart"
        className={cn(
          'flex aspect-video w-full justify-center text-xs',
          '[&_.recharts-cartesian-axis-tick_text]:fill-muted-foreground [&_.recharts-cartesian-grid_line]:stroke-border',
          '[&_.recharts-curve.recharts-tooltip-cursor]:stroke-border [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted',
          '[&_.recharts-reference-line_line]:stroke-border [&_.recharts-surface]:outline-hidden',
          className,
        )}
        style={{ ...colors, ...style }}
        {...props}
      >
        {/* An initial size so the server render and the first paint lay out before the container is measured. */}
        <Recharts.ResponsiveContainer initialDimension={{ width: 600, height: 240 }}>
          {children}
        </Recharts.ResponsiveContainer>
      </div>
    </ChartContext.Provider>
  )
}

export const ChartTooltip = Recharts.Tooltip

function seriesKeyOf(entry: { dataKey?: unknown; name?: unknown }): string {
  return String(entry.dataKey ?? entry.name ?? '')
}

/** The tooltip's box: the hovered label, then each series with its colour, its configured label and its value. */
export function ChartTooltipContent({
  active,
  payload,
  label,
  labelFormatter,
  valueFormatter,
  hideLabel = false,
  className,
}: Partial<Pick<TooltipContentProps, 'active' | 'payload' | 'label'>> & {
  labelFormatter?: (label: string) => ReactNode
  valueFormatter?: (value: number, key: string) => ReactNode
  hideLabel?: boolean
  className?: string
}) {
  const config = useChartConfig()
  if (!active || !payload?.length) return null
  return (
    <div
      className={cn(
        'grid min-w-32 gap-1.5 rounded-lg border bg-popover px-2.5 py-1.5 text-xs text-popover-foreground shadow-xl',
        className,
      )}
    >
      {hideLabel || label === undefined ? null : (
        <div className="font-medium">{labelFormatter ? labelFormatter(String(label)) : label}</div>
      )}
      <div className="grid gap-1">
        {payload.map((entry: TooltipPayloadEntry) => {
          const key = seriesKeyOf(entry)
          const item = config[key]
          const value = typeof entry.value === 'number' ? entry.value : Number(entry.value ?? 0)
          return (
            <div key={key} className="flex items-center gap-2">
              <SeriesMarker
                color={`var(${colorVariable(key)}, ${entry.color ?? 'currentColor'})`}
                dashed={item?.dashed}
              />
              <span className="text-muted-foreground">{item?.label ?? entry.name}</span>
              <span className="ml-auto pl-2 font-mono font-medium tabular-nums text-foreground">
                {valueFormatter ? valueFormatter(value, key) : value}
              </span>
            </div>
          )
        })}
      </div>
    </div>
  )
}

export const ChartLegend = Recharts.Legend

/** The legend as HTML: each series' marker (dashed for a comparison) and its configured label. */
export function ChartLegendContent({ payload, className }: { payload?: readonly LegendPayload[]; className?: string }) {
  const config = useChartConfig()
  if (!payload?.length) return null
  // In the config's order (recharts sorts by name, which the reader's language would reshuffle).
  const order = Object.keys(config)
  const rank = (entry: LegendPayload) => order.indexOf(String(entry.dataKey ?? entry.value ?? ''))
  const entries = [...payload].sort((a, b) => rank(a) - rank(b))
  return (
    <ul className={cn('flex flex-wrap items-center justify-center gap-x-4 gap-y-1 pt-3', className)}>
      {entries.map((entry) => {
        const key = String(entry.dataKey ?? entry.value ?? '')
        const item = config[key]
        return (
          <li key={key} className="flex items-center gap-1.5">
            <SeriesMarker
              color={`var(${colorVariable(key)}, ${entry.color ?? 'currentColor'})`}
              dashed={item?.dashed}
            />
            <span>{item?.label ?? entry.value}</span>
          </li>
        )
      })}
    </ul>
  )
}

function SeriesMarker({ color, dashed }: { color: string; dashed?: boolean }) {
  return dashed ? (
    <span aria-hidden className="h-0 w-3 shrink-0 border-t-2 border-dashed" style={{ borderColor: color }} />
  ) : (
    <span aria-hidden className="size-2.5 shrink-0 rounded-[2px]" style={{ backgroundColor: color }} />
  )
}
