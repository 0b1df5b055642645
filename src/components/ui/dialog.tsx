import { XIcon } from 'lucide-react'
import { Dialog as Primitive } from 'radix-ui'
import type * as React from 'react'
import { cn } from '#/lib/utils'
import { m } from '#/paraglide/messages'

export const Dialog = Primitive.Root
export const DialogTrigger = Primitive.Trigger
export const DialogClose = Primitive.Close

/** A centred dialog, or (side="left") a drawer that slides in from the edge, as phones show navigation. */
export function DialogContent({
  className,
  children,
  side,
  ...props
}: React.ComponentProps<typeof Primitive.Content> & { side?: 'left' }) {
  return (
    <Primitive.Portal>
      <Primitive.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0" />
      <Primitive.Content
        className={cn(
          'fixed z-50 grid gap-4 border bg-background shadow-lg outline-none',
          side === 'left'
            ? 'inset-y-0 left-0 w-[85%] max-w-[380px] content-start overflow-y-auto p-4 data-[state=open]:animate-in data-[state=open]:slide-in-from-left'
            : 'top-1/2 left-1/2 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg p-6 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95',
          className,
        )}
        {...props}
      >
        {children}
        <Primitive.Close
          className="absolute top-3 right-3 rounded-sm p-1 opacity-70 outline-none hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-label={m.dialog_close()}
        >
          <XIcon className="size-4" aria-hidden />
        </Primitive.Close>
      </Primitive.Content>
    </Primitive.Portal>
  )
}

export function DialogTitle({ className, ...props }: React.ComponentProps<typeof Primitive.Title>) {
  return <Primitive.Title className={cn('pr-8 text-lg font-semibold', className)} {...props} />
}

export function DialogDescription({ className, ...props }: React.ComponentProps<typeof Primitive.Description>) {
  return <Primitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />
}
