import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Button } from '#/components/ui/button'
import { describeError } from '#/lib/errors'
import { m } from '#/paraglide/messages'

/** A query's loading and failure states, the same on every organization page; `children` renders the data. */
export function QueryState<T>({
  query,
  children,
}: {
  query: UseQueryResult<T, unknown>
  children: (data: T) => ReactNode
}) {
  if (query.isPending) {
    return (
      <p role="status" className="py-6 text-sm text-muted-foreground">
        {m.loading()}
      </p>
    )
  }
  if (query.isError) {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 p-4 text-sm"
      >
        <span>{describeError(query.error)}</span>
        <Button variant="outline" size="sm" onClick={() => query.refetch()}>
          {m.retry()}
        </Button>
      </div>
    )
  }
  return children(query.data)
}
