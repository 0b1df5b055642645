import { RotateCcwIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '#/components/ui/button'

/** One thing that failed (a job, a payment event, an email): what it is, its last error, and a button to try again. */
export function RetryItem({
  children,
  error,
  retryLabel,
  ariaLabel,
  pending,
  onRetry,
}: {
  children: ReactNode
  error: string | null
  retryLabel: string
  ariaLabel?: string
  pending: boolean
  onRetry: () => void
}) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3 text-sm">
      <div className="min-w-0">
        {children}
        {error ? <p className="mt-1 [overflow-wrap:anywhere] text-destructive">{error}</p> : null}
      </div>
      <Button size="sm" variant="outline" disabled={pending} onClick={onRetry} aria-label={ariaLabel}>
        <RotateCcwIcon aria-hidden />
        {retryLabel}
      </Button>
    </li>
  )
}
