import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ImageUpIcon, Trash2Icon } from 'lucide-react'
import { type ChangeEvent, useId, useRef } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { isOfType, shrinkImage, UploadProgress, type UploadRefusal, useUpload } from '#/features/uploads'
import { toastError } from '#/lib/error-toast'
import { formatFileSize } from '#/lib/file-size'
import { currentIntlLocale } from '#/lib/i18n'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import './file-messages'
import { coverAccept, coverBoxes, fileBytesPerPlan, imageTypes } from '../file-rules'
import { sizeRefusal } from './size-refusal'

/** The largest size a cover is kept at: the photo is drawn just large enough to fill it. */
const coverTarget = coverBoxes[coverBoxes.length - 1] ?? { width: 320, height: 480 }

/**
 * The cover to send: the photo shrunk in the browser (a 10 MB phone photo leaves as a few hundred KB); one the browser cannot
 * draw goes as it is, for the server to judge, if it is within the plan's size.
 */
async function coverBody(file: File, fileLimit: number | undefined): Promise<Blob | UploadRefusal> {
  if (!isOfType(file, imageTypes)) return { code: 'IMAGE_NOT_ACCEPTED', message: m.error_code_IMAGE_NOT_ACCEPTED() }
  const body = (await shrinkImage(file, coverTarget)) ?? file
  return sizeRefusal({ name: file.name, size: body.size }, fileLimit) ?? body
}

/** The book page's cover buttons: upload an image as the cover (resized by the server), or remove the uploaded one. */
export function BookCoverActions({ bookId, hasUploadedCover }: { bookId: string; hasUploadedCover: boolean }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const planLimits = useQuery({ ...trpc.organizations.planLimits.queryOptions(), staleTime: 30_000 })
  const fileLimit = planLimits.data ? fileBytesPerPlan[planLimits.data.planId] : undefined
  const input = useRef<HTMLInputElement>(null)
  const hintId = useId()
  const upload = useUpload()
  const busy = upload.progress !== null
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.books.get.queryKey({ id: bookId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.books.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.organizations.planLimits.queryKey() }),
    ])
  const remove = useMutation(
    trpc.files.removeCover.mutationOptions({
      onSuccess: async () => {
        toast.success(m.book_cover_removed())
        await refresh()
      },
      onError: toastError,
    }),
  )
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    void upload.start({
      name: file.name,
      url: `/api/uploads/books/${encodeURIComponent(bookId)}/cover`,
      prepare: () => coverBody(file, fileLimit),
      onSent: async () => {
        toast.success(m.book_cover_uploaded())
        await refresh()
      },
    })
  }
  return (
    <div className="grid gap-1" data-testid="book-cover-actions">
      <input
        ref={input}
        type="file"
        accept={coverAccept}
        className="sr-only"
        tabIndex={-1}
        aria-label={m.book_cover_upload()}
        aria-describedby={fileLimit ? hintId : undefined}
        onChange={pick}
      />
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="justify-start"
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        <ImageUpIcon aria-hidden />
        {m.book_cover_upload()}
      </Button>
      {upload.progress ? <UploadProgress progress={upload.progress} onCancel={upload.cancel} /> : null}
      {hasUploadedCover ? (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="justify-start"
          disabled={busy || remove.isPending}
          onClick={() => remove.mutate({ bookId })}
        >
          <Trash2Icon aria-hidden />
          {m.book_cover_remove()}
        </Button>
      ) : null}
      {fileLimit ? (
        <p id={hintId} className="text-xs text-muted-foreground" data-testid="book-cover-hint">
          {m.book_cover_hint({ size: formatFileSize(fileLimit, currentIntlLocale()) })}
        </p>
      ) : null}
    </div>
  )
}
