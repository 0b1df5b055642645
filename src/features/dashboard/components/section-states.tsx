import { m } from '#/paraglide/messages'
import { describeDashboardError } from '../dashboard-errors'

/** A section whose numbers could not be read says why, in place of its cards. */
export function LoadError({ error }: { error: unknown }) {
  return (
    <p role="alert" className="rounded-xl border border-destructive/40 p-4 text-sm text-destructive">
      {describeDashboardError(error)}
    </p>
  )
}

/** The shape of a section while its numbers load: cards, then a chart. */
export function SectionSkeleton({ label }: { label: string }) {
  return (
    <div className="grid gap-4" aria-busy="true">
      <p role="status" className="sr-only">
        {m.dashboard_loading({ section: label })}
      </p>
      <div className="h-6 w-40 animate-pulse rounded-md bg-muted" />
      <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 xl:grid-cols-4">
        {['a', 'b', 'c', 'd'].map((key) => (
          <div key={key} className="h-24 animate-pulse rounded-xl bg-muted" />
        ))}
      </div>
      <div className="h-72 animate-pulse rounded-xl bg-muted" />
    </div>
  )
}
