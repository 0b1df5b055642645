import { useId } from 'react'
import {
  CsvButton,
  csvFileName,
  csvOf,
  DashboardTable,
  formatCount,
  formatDuration,
  type TableColumn,
} from '#/features/dashboard'
import { currentIntlLocale } from '#/lib/i18n'
import { m } from '#/paraglide/messages'
import type { BreakdownRow, TrafficNumbers } from '../traffic-numbers'

export type BreakdownDimension = keyof TrafficNumbers['breakdowns']

interface BreakdownText {
  /** The table's heading and accessible name. */
  title: () => string
  /** The first column's heading. */
  column: () => string
  /** The CSV file's name part. */
  file: string
  /** How a value reads ('' is a direct visit or an unknown). */
  label?: (value: string) => string
}

const deviceNames: Record<string, (() => string) | undefined> = {
  desktop: m.dashboard_device_desktop,
  mobile: m.dashboard_device_mobile,
  tablet: m.dashboard_device_tablet,
}
const screenNames: Record<string, (() => string) | undefined> = {
  phone: m.dashboard_screen_phone,
  tablet: m.dashboard_screen_tablet,
  laptop: m.dashboard_screen_laptop,
  desktop: m.dashboard_screen_desktop,
}

/** A language tag named in the reader's language, with the tag itself ("English (United States) · en-US"). */
function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([currentIntlLocale()], { type: 'language' }).of(tag)
    return name && name !== tag ? `${name} · ${tag}` : tag
  } catch {
    return tag
  }
}

const orUnknown = (value: string) => value || m.dashboard_value_unknown()

export const breakdownText: Record<BreakdownDimension, BreakdownText> = {
  page: { title: m.dashboard_top_pages, column: m.dashboard_col_page, file: 'pages' },
  referrer: {
    title: m.dashboard_top_referrers,
    column: m.dashboard_col_referrer,
    file: 'referrers',
    label: (value) => value || m.dashboard_referrer_direct(),
  },
  utm_campaign: { title: m.dashboard_utm_campaigns, column: m.dashboard_col_campaign, file: 'utm-campaigns' },
  utm_source: { title: m.dashboard_utm_sources, column: m.dashboard_col_source, file: 'utm-sources' },
  utm_medium: { title: m.dashboard_utm_mediums, column: m.dashboard_col_medium, file: 'utm-mediums' },
  language: {
    title: m.dashboard_languages,
    column: m.dashboard_col_language,
    file: 'languages',
    label: (value) => (value ? languageName(value) : m.dashboard_value_unknown()),
  },
  browser: { title: m.dashboard_browsers, column: m.dashboard_col_browser, file: 'browsers', label: orUnknown },
  os: { title: m.dashboard_os, column: m.dashboard_col_os, file: 'operating-systems', label: orUnknown },
  device: {
    title: m.dashboard_devices,
    column: m.dashboard_col_device,
    file: 'devices',
    label: (value) => deviceNames[value]?.() ?? orUnknown(value),
  },
  screen: {
    title: m.dashboard_screens,
    column: m.dashboard_col_screen,
    file: 'screens',
    label: (value) => screenNames[value]?.() ?? orUnknown(value),
  },
}

/**
 * The top values of one breakdown over the range, as a table (a bar behind each value shows its share of the top
 * row's visitors), with its CSV download. Pages also show the average time on page.
 */
export function BreakdownCard({
  dimension,
  rows,
  range,
}: {
  dimension: BreakdownDimension
  rows: readonly BreakdownRow[]
  range: { from: string; to: string }
}) {
  const titleId = useId()
  const text = breakdownText[dimension]
  const title = text.title()
  const label = text.label ?? ((value: string) => value)
  const top = Math.max(1, ...rows.map((row) => row.visitors))
  const columns: TableColumn<BreakdownRow>[] = [
    {
      header: text.column(),
      cell: (row) => (
        <span className="relative block min-w-28 py-0.5">
          <span
            aria-hidden
            className="absolute inset-y-0 left-0 rounded-sm bg-(--chart-1)/15"
            style={{ width: `${(row.visitors / top) * 100}%` }}
          />
          <span className="relative break-all">{label(row.value)}</span>
        </span>
      ),
      csv: (row) => label(row.value),
    },
    {
      header: m.dashboard_kpi_visitors(),
      numeric: true,
      cell: (row) => formatCount(row.visitors),
      csv: (row) => row.visitors,
    },
    {
      header: m.dashboard_kpi_pageviews(),
      numeric: true,
      cell: (row) => formatCount(row.pageviews),
      csv: (row) => row.pageviews,
    },
  ]
  if (dimension === 'page') {
    columns.push({
      header: m.dashboard_kpi_avg_time(),
      numeric: true,
      // A dash for a page nobody left measurably (the words stay for screen readers).
      cell: (row) =>
        row.avgTimeOnPageMs === null ? (
          <>
            <span aria-hidden>–</span>
            <span className="sr-only">{m.dashboard_not_measured()}</span>
          </>
        ) : (
          formatDuration(row.avgTimeOnPageMs)
        ),
      // Seconds, so a spreadsheet can average them.
      csv: (row) => (row.avgTimeOnPageMs === null ? '' : Math.round(row.avgTimeOnPageMs / 1000)),
    })
  }
  const csvColumns =
    dimension === 'page'
      ? columns.map((column, index) =>
          index === 3 ? { ...column, header: m.dashboard_col_avg_time_seconds() } : column,
        )
      : columns
  return (
    <section aria-labelledby={titleId} className="min-w-0 rounded-xl border p-4" data-testid={`breakdown-${dimension}`}>
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="font-semibold">
          {title}
        </h3>
        <CsvButton title={title} fileName={csvFileName(text.file, range)} table={() => csvOf(csvColumns, rows)} />
      </div>
      <DashboardTable
        labelledBy={titleId}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.value}
        empty={m.dashboard_breakdown_empty()}
      />
    </section>
  )
}
