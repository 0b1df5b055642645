import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

/** What a list or page shows while it has nothing yet: what will be here, and how to get started. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon
  title: string
  children: ReactNode
  action?: ReactNode
}) {
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center"
      data-testid="empty-state"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-secondary">
        <Icon className="size-6 text-muted-foreground" aria-hidden />
      </span>
      <h2 className="font-semibold">{title}</h2>
      <div className="max-w-md text-sm text-muted-foreground">{children}</div>
      {action}
    </div>
  )
}
