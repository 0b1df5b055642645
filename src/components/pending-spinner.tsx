import { LoaderCircleIcon } from 'lucide-react'
import { m } from '#/paraglide/messages'

export function PendingSpinner() {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center text-muted-foreground">
      <LoaderCircleIcon className="size-6 animate-spin" aria-hidden />
      <span className="sr-only">{m.loading()}</span>
    </div>
  )
}
