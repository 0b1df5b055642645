import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ImageUpIcon, Trash2Icon } from 'lucide-react'
import { type ChangeEvent, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#/components/ui/button'
import { toastError } from '#/lib/error-toast'
import { useTRPC } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { sendUpload, toastUploadRefusal } from './send-upload'

/** The book page's cover buttons: upload an image as the cover (resized by the server), or remove the uploaded one. */
export function BookCoverActions({ bookId, hasUploadedCover }: { bookId: string; hasUploadedCover: boolean }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState(false)
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.books.get.queryKey({ id: bookId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.books.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.billing.overview.queryKey() }),
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
  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    setBusy(true)
    try {
      const refusal = await sendUpload(`/api/uploads/books/${encodeURIComponent(bookId)}/cover`, 'POST', file)
      if (refusal) toastUploadRefusal(refusal)
      else {
        toast.success(m.book_cover_uploaded())
        await refresh()
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="grid gap-1" data-testid="book-cover-actions">
      <input
        ref={input}
        type="file"
        accept="image/*"
        className="sr-only"
        tabIndex={-1}
        aria-label={m.book_cover_upload()}
        onChange={(event) => void upload(event)}
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
    </div>
  )
}
