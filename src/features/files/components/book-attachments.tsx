import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { inferRouterOutputs } from '@trpc/server'
import { DownloadIcon, FileTextIcon, ImageIcon, PaperclipIcon, Trash2Icon } from 'lucide-react'
import { type ChangeEvent, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import { PlanLimitReached } from '#/components/plan-limit-notice'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#/components/ui/alert-dialog'
import { Button } from '#/components/ui/button'
import { isOfType, UploadProgress, useUpload } from '#/features/uploads'
import { toastError } from '#/lib/error-toast'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import type { AppRouter } from '#/server/trpc/root'
import './file-messages'
import { attachmentAccept, attachmentTypes, fileBytesPerPlan } from '../file-rules'
import { sizeRefusal } from './size-refusal'

type Attachment = inferRouterOutputs<AppRouter>['files']['attachments'][number]

function useRefreshAttachments(bookId: string) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.files.attachments.queryKey({ bookId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.organizations.planLimits.queryKey() }),
    ])
}

/** The book page's attachments: each file with its size, who added it and when; download, and for editors add and delete. */
export function BookAttachments({ bookId, canUpdate }: { bookId: string; canUpdate: boolean }) {
  const trpc = useTRPC()
  const attachments = useQuery(trpc.files.attachments.queryOptions({ bookId }))
  const headingId = useId()
  const upload = useUpload()
  return (
    <section aria-labelledby={headingId} className="grid gap-3" data-testid="book-attachments">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {m.book_attachments_title()}
        </h2>
        {canUpdate ? <AttachButton bookId={bookId} upload={upload} /> : null}
      </div>
      {upload.progress ? <UploadProgress progress={upload.progress} onCancel={upload.cancel} /> : null}
      {canUpdate ? <PlanLimitReached name="storage" /> : null}
      {attachments.data && attachments.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.book_attachments_none()}</p>
      ) : (
        <ul className="divide-y rounded-lg border">
          {attachments.data?.map((attachment) => (
            <AttachmentItem key={attachment.id} bookId={bookId} attachment={attachment} canUpdate={canUpdate} />
          ))}
        </ul>
      )}
    </section>
  )
}

/** Picks a file, checks its type and size, and uploads it with its progress; what it may be is said beside it. */
function AttachButton({ bookId, upload }: { bookId: string; upload: ReturnType<typeof useUpload> }) {
  const trpc = useTRPC()
  const planLimits = useQuery({ ...trpc.organizations.planLimits.queryOptions(), staleTime: 30_000 })
  const refresh = useRefreshAttachments(bookId)
  const input = useRef<HTMLInputElement>(null)
  const hintId = useId()
  const fileLimit = planLimits.data ? fileBytesPerPlan[planLimits.data.planId] : undefined
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    void upload.start({
      name: file.name,
      url: `/api/uploads/books/${encodeURIComponent(bookId)}/attachments?name=${encodeURIComponent(file.name)}`,
      prepare: async () => {
        if (!isOfType(file, attachmentTypes)) {
          return { code: 'FILE_NOT_ACCEPTED', message: m.error_code_FILE_NOT_ACCEPTED() }
        }
        return sizeRefusal(file, fileLimit) ?? file
      },
      onSent: async () => {
        toast.success(m.book_attachments_added({ name: file.name }))
        await refresh()
      },
    })
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {fileLimit ? (
        <span id={hintId} className="text-xs text-muted-foreground" data-testid="book-attachments-hint">
          {m.book_attachments_hint({ size: formatFileSize(fileLimit, currentIntlLocale()) })}
        </span>
      ) : null}
      <input
        ref={input}
        type="file"
        accept={attachmentAccept}
        className="sr-only"
        tabIndex={-1}
        aria-label={m.book_attachments_add()}
        aria-describedby={fileLimit ? hintId : undefined}
        onChange={pick}
      />
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={upload.progress !== null}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon aria-hidden />
        {upload.progress ? m.book_attachments_uploading() : m.book_attachments_add()}
      </Button>
    </div>
  )
}

/** An image's thumbnail, or the file's icon: for PDFs, and images kept before thumbnails were made (their link fails). */
function AttachmentPreview({ attachment }: { attachment: Attachment }) {
  const [failed, setFailed] = useState(false)
  if (attachment.thumbnailUrl && !failed) {
    return (
      <img
        src={attachment.thumbnailUrl}
        alt={m.book_attachments_thumbnail({ name: attachment.name })}
        width={40}
        height={40}
        loading="lazy"
        className="size-10 shrink-0 rounded border object-cover"
        onError={() => setFailed(true)}
        data-testid="book-attachment-thumbnail"
      />
    )
  }
  const Icon = attachment.contentType === 'application/pdf' ? FileTextIcon : ImageIcon
  return (
    <span className="flex size-10 shrink-0 items-center justify-center">
      <Icon className="size-5 text-muted-foreground" aria-hidden />
    </span>
  )
}

function AttachmentItem({
  bookId,
  attachment,
  canUpdate,
}: {
  bookId: string
  attachment: Attachment
  canUpdate: boolean
}) {
  const trpc = useTRPC()
  const refresh = useRefreshAttachments(bookId)
  const download = useMutation(
    trpc.files.downloadLink.mutationOptions({
      onSuccess: ({ url }) => window.location.assign(url),
      onError: toastError,
    }),
  )
  const remove = useMutation(
    trpc.files.deleteAttachment.mutationOptions({
      onSuccess: async () => {
        toast.success(m.book_attachments_deleted({ name: attachment.name }))
        await refresh()
      },
      onError: toastError,
    }),
  )
  const date = new Intl.DateTimeFormat(currentIntlLocale(), { dateStyle: 'medium' })
  return (
    <li className="flex items-center gap-3 p-3" data-testid="book-attachment">
      <AttachmentPreview attachment={attachment} />
      <div className="grid min-w-0 flex-1 gap-0.5">
        <span className="truncate text-sm font-medium">{attachment.name}</span>
        <span className="text-xs text-muted-foreground">
          {m.book_attachments_meta({
            size: formatFileSize(attachment.bytes, currentIntlLocale()),
            name: attachment.createdByName ?? m.books_former_member(),
            date: date.format(attachment.createdAt),
          })}
        </span>
      </div>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={m.book_attachments_download({ name: attachment.name })}
        disabled={download.isPending}
        onClick={() => download.mutate({ id: attachment.id })}
      >
        <DownloadIcon aria-hidden />
      </Button>
      {canUpdate ? (
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={m.book_attachments_delete({ name: attachment.name })}
            >
              <Trash2Icon aria-hidden />
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogTitle>{m.book_attachments_delete_title({ name: attachment.name })}</AlertDialogTitle>
            <AlertDialogDescription>{m.book_attachments_delete_body()}</AlertDialogDescription>
            <AlertDialogFooter>
              <AlertDialogCancel>{m.cancel()}</AlertDialogCancel>
              <Button variant="destructive" onClick={() => remove.mutate({ id: attachment.id })}>
                {m.books_delete()}
              </Button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      ) : null}
    </li>
  )
}
