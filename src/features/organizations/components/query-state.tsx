import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { LoadError } from '#/components/list-screen'
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
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />
  return children(query.data)
}
