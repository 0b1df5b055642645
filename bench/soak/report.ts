// The soak's printed tables (Markdown, so they go into the docs as they are).

import type { KindStats } from './traffic.ts'
import type { Check } from './verify.ts'

export function markdownTable(header: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)))
  const pad = (text: string, column: number) =>
    rightAligned[column] ? text.padStart(widths[column] ?? 0) : text.padEnd(widths[column] ?? 0)
  const line = (values: string[]) => `| ${values.map(pad).join(' | ')} |`
  const rule = `|${widths.map((width, column) => `${'-'.repeat(width + 1)}${rightAligned[column] ? ':' : '-'}`).join('|')}|`
  return [line(header), rule, ...rows.map(line)].join('\n')
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN
}

const ms = (value: number) => (Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(1) : value.toFixed(0))

export function latencyTable(kinds: KindStats[], seconds: number): string {
  const rows = [...kinds]
    .sort((a, b) => a.kind.localeCompare(b.kind))
    .map((stats) => {
      const sorted = Float64Array.from(stats.latenciesMs).sort()
      const list = Array.from(sorted)
      const total = [...stats.statuses.values()].reduce((sum, count) => sum + count, 0)
      const fivexx = [...stats.statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0)
      return [
        stats.kind,
        String(total),
        (total / seconds).toFixed(1),
        String(stats.unexpected),
        String(fivexx),
        ms(percentile(list, 0.5)),
        ms(percentile(list, 0.99)),
        ms(list.at(-1) ?? Number.NaN),
      ]
    })
  return markdownTable(['request', 'answers', 'per s', 'unexpected', '5xx', 'p50 ms', 'p99 ms', 'max ms'], rows, [
    false,
    true,
    true,
    true,
    true,
    true,
    true,
    true,
  ])
}

export function checksTable(checks: Check[]): string {
  return markdownTable(
    ['check', 'expected', 'found', 'result'],
    checks.map((check) => [check.name, check.expected, check.found, check.ok ? 'ok' : 'FAIL']),
    [false, false, false, false],
  )
}
