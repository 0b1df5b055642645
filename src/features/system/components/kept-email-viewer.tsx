import { useQuery } from '@tanstack/react-query'
import { Tabs } from 'radix-ui'
import { PendingSpinner } from '#/components/pending-spinner'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#/components/ui/dialog'
import { describeError } from '#/lib/errors'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { keptEmailFrameDocument, textWithLinks } from '../kept-email-frame'

const tabClass =
  'inline-flex h-7 items-center rounded-md px-3 text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm'

/**
 * One kept email as it would have been sent: its headers, its HTML in a sandboxed frame (no scripts, no access to
 * this page; links open in a new tab) and its plain text. The email keeps the language it was written in.
 */
export function KeptEmailViewer({
  id,
  onClose,
  formatMoment,
}: {
  id: number | undefined
  onClose: () => void
  formatMoment: (date: Date) => string
}) {
  const trpc = useTRPC()
  const email = useQuery({ ...trpc.system.keptEmail.queryOptions({ id: id ?? 1 }), enabled: id !== undefined })
  const shown = id === undefined ? undefined : email.data
  return (
    <Dialog open={id !== undefined} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="max-w-3xl gap-3 p-4 sm:p-6" data-testid="kept-email">
        <DialogTitle className="[overflow-wrap:anywhere]">{shown?.subject ?? m.system_kept_title()}</DialogTitle>
        <DialogDescription>{m.system_kept_viewer_note()}</DialogDescription>
        {email.error ? (
          <p className="text-sm text-destructive" role="alert">
            {describeError(email.error)}
          </p>
        ) : !shown ? (
          <PendingSpinner />
        ) : (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="kept-email-headers">
              <dt className="text-muted-foreground">{m.system_kept_to()}</dt>
              <dd className="[overflow-wrap:anywhere]">{shown.to}</dd>
              <dt className="text-muted-foreground">{m.system_kept_subject()}</dt>
              <dd className="[overflow-wrap:anywhere]">{shown.subject}</dd>
              <dt className="text-muted-foreground">{m.system_kept_date()}</dt>
              <dd>{formatMoment(shown.createdAt)}</dd>
            </dl>
            <Tabs.Root defaultValue="html" className="grid gap-2">
              <Tabs.List className="inline-flex w-fit items-center rounded-lg bg-muted p-1 text-muted-foreground">
                <Tabs.Trigger value="html" className={tabClass}>
                  {m.system_kept_tab_html()}
                </Tabs.Trigger>
                <Tabs.Trigger value="text" className={tabClass}>
                  {m.system_kept_tab_text()}
                </Tabs.Trigger>
              </Tabs.List>
              <Tabs.Content value="html" className="outline-none">
                {/* Mail is drawn on white, as mail clients draw it, whatever this page's theme. */}
                <iframe
                  title={m.system_kept_frame_title()}
                  srcDoc={keptEmailFrameDocument(shown.html)}
                  sandbox="allow-popups allow-popups-to-escape-sandbox"
                  referrerPolicy="no-referrer"
                  className="h-[50dvh] min-h-64 w-full rounded-lg border bg-white"
                  data-testid="kept-email-html"
                />
              </Tabs.Content>
              <Tabs.Content value="text" className="outline-none">
                <pre
                  className="h-[50dvh] min-h-64 overflow-auto rounded-lg border bg-muted/30 p-3 font-mono text-xs leading-5 whitespace-pre-wrap [overflow-wrap:anywhere]"
                  data-testid="kept-email-text"
                >
                  {textWithLinks(shown.text).map((part, index) =>
                    part.url ? (
                      <a
                        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered.
                        key={index}
                        href={part.url}
                        target="_blank"
                        rel="noreferrer"
                        className="text-primary underline underline-offset-2"
                      >
                        {part.text}
                      </a>
                    ) : (
                      part.text
                    ),
                  )}
                </pre>
              </Tabs.Content>
            </Tabs.Root>
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
