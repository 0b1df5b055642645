import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { MailIcon, Trash2Icon } from 'lucide-react'
import { toast } from 'sonner'
import { ListPager, type PageChange, useLastPageWhenPastTheEnd } from '#/components/list-pager'
import { SettingsSection } from '#/components/settings-section'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { currentIntlLocale } from '#/lib/i18n'
import { listPageSizes } from '#/lib/list-paging'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { keptEmailsInputOf, type SystemSearch } from '../search'
import { KeptEmailViewer } from './kept-email-viewer'

type SearchChange = (change: Partial<SystemSearch>, options?: { replace?: boolean }) => void

/**
 * The emails kept without SMTP, newest first, each opening in a viewer as it would have been sent: the mailbox of a
 * server that has none (letter_opener, Mailpit). Only app admins reach it; the server checks each procedure.
 */
export function KeptEmailsSection({ search, onSearchChange }: { search: SystemSearch; onSearchChange: SearchChange }) {
  const trpc = useTRPC()
  const input = keptEmailsInputOf(search)
  const kept = useQuery({
    ...trpc.system.keptEmails.queryOptions(input),
    placeholderData: keepPreviousData,
    // A developer signs up in another tab and comes back for the link: the new email is there without a reload.
    refetchInterval: 10_000,
  })
  const changePage = (change: PageChange, options?: { replace?: boolean }) =>
    onSearchChange({ keptPage: change.page, ...(change.size ? { keptSize: change.size } : {}) }, options)
  useLastPageWhenPastTheEnd({
    page: input.page,
    size: input.limit,
    total: kept.data?.total,
    rowsShown: kept.data?.items.length ?? 0,
    settled: !kept.isPlaceholderData,
    onChange: changePage,
  })
  const moment = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium', timeStyle: 'short' })
  const total = kept.data?.total ?? 0
  return (
    <SettingsSection
      id="kept-emails"
      title={m.system_kept_title()}
      subtitle={m.system_kept_subtitle({ days: kept.data?.retentionDays ?? 7 })}
    >
      {kept.data?.items.length ? (
        <>
          <div className="mt-3 flex justify-end">
            <DeleteAllButton count={total} onDeleted={() => onSearchChange({ keptPage: undefined })} />
          </div>
          <ul className="mt-2 grid gap-2" data-testid="kept-emails">
            {kept.data.items.map((email) => (
              <li key={email.id}>
                <Link
                  to="/console/system"
                  search={{ ...search, email: email.id }}
                  resetScroll={false}
                  aria-label={m.system_kept_open({ to: email.to, subject: email.subject })}
                  className="flex items-start gap-3 rounded-lg border p-3 text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <MailIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
                  <span className="grid min-w-0 flex-1 gap-0.5">
                    <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                      <span className="font-medium [overflow-wrap:anywhere]">{email.subject}</span>
                      <time
                        dateTime={email.createdAt.toISOString()}
                        className="text-xs whitespace-nowrap text-muted-foreground"
                      >
                        {moment.format(email.createdAt)}
                      </time>
                    </span>
                    <span className="text-muted-foreground [overflow-wrap:anywhere]">{email.to}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          {total > listPageSizes[0] ? (
            <ListPager page={input.page} size={input.limit} total={total} onChange={changePage} />
          ) : null}
        </>
      ) : kept.data ? (
        <p className="mt-3 text-sm text-muted-foreground">{m.system_kept_none()}</p>
      ) : null}
      <KeptEmailViewer
        id={search.email}
        onClose={() => onSearchChange({ email: undefined })}
        formatMoment={(date) => moment.format(date)}
      />
    </SettingsSection>
  )
}

/** Deletes every kept email, once confirmed: they hold links and codes, and a developer clears them between tries. */
function DeleteAllButton({ count, onDeleted }: { count: number; onDeleted: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const number = new Intl.NumberFormat(currentIntlLocale())
  const deleteAll = useMutation(
    trpc.system.deleteKeptEmails.mutationOptions({
      onSuccess: ({ deleted }) => {
        toast.success(m.system_kept_deleted({ count: number.format(deleted) }))
        onDeleted()
        void queryClient.invalidateQueries({ queryKey: trpc.system.keptEmails.queryKey() })
        void queryClient.invalidateQueries({ queryKey: trpc.system.jobs.queryKey() })
      },
      onError: toastError,
    }),
  )
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" disabled={deleteAll.isPending}>
          <Trash2Icon aria-hidden />
          {m.system_kept_delete_all()}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>{m.system_kept_delete_title({ count: number.format(count) })}</AlertDialogTitle>
        <AlertDialogDescription>{m.system_kept_delete_body()}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
          <AlertDialogAction onClick={() => deleteAll.mutate()}>{m.system_kept_delete_yes()}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
