import { CopyIcon, TriangleAlertIcon } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { m } from '#/paraglide/messages'

/** A new signing secret, shown once with a copy button; gone from the page once closed. */
export function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret)
      toast.success(m.webhooks_secret_copied())
    } catch {
      toast.error(m.apikeys_copy_failed())
    }
  }
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onDone())}>
      <DialogContent className="max-w-xl">
        <DialogTitle>{m.webhooks_secret_title()}</DialogTitle>
        <DialogDescription className="flex items-start gap-2">
          <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          {m.webhooks_secret_body()}
        </DialogDescription>
        <code
          className="block rounded-md border bg-muted/40 p-2 font-mono text-sm break-all select-all"
          data-testid="webhook-secret"
        >
          {secret}
        </code>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={copy}>
            <CopyIcon aria-hidden />
            {m.webhooks_secret_copy()}
          </Button>
          <Button onClick={onDone}>{m.webhooks_secret_done()}</Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}
