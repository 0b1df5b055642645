import type * as React from 'react'
import { cn } from '#/lib/utils'

/** The browser's own select, styled like the inputs: keyboard, screen readers and phones handle it natively. */
export function NativeSelect({ className, ...props }: React.ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-9 w-full min-w-0 rounded-md border border-input bg-background px-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-[invalid=true]:border-destructive disabled:opacity-50',
        className,
      )}
      {...props}
    />
  )
}
