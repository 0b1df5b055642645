import { useMutation } from '@tanstack/react-query'
import { toast } from 'sonner'
import { toastError } from '#/lib/error-toast'
import { oneFinalStop } from '#/lib/sentence'
import { useTRPC, useTRPCClient } from '#/lib/trpc'
import { m } from '#/paraglide/messages'
import { type BookRow, useBookListCache } from '../book-queries'

/**
 * Deletes books at once from the list, with "Undo" in the toast; the server keeps them restorable for 30 days.
 * A refusal puts them back.
 */
export function useDeleteBooks() {
  const trpc = useTRPC()
  const cache = useBookListCache()
  const remove = useMutation(trpc.books.delete.mutationOptions())
  const client = useTRPCClient()

  /** `onDeleted` may leave the page first (a book's own page goes back to the list): its cache is dropped after. */
  return (books: Pick<BookRow, 'id' | 'title'>[], onDeleted?: () => Promise<unknown>) => {
    const ids = books.map((book) => book.id)
    const undo = cache.apply((items) => items.filter((item) => !ids.includes(item.id)))
    remove.mutate(
      { ids },
      {
        onError: (error) => {
          undo()
          toastError(error)
        },
        onSuccess: async () => {
          await onDeleted?.()
          cache.forget(ids)
          void cache.refresh()
          const first = books[0]
          toast.success(
            books.length === 1 && first
              ? oneFinalStop(m.books_deleted({ title: first.title }))
              : m.books_deleted_many({ count: String(books.length) }),
            {
              action: {
                label: m.books_undo(),
                // Called straight on the client: a book's own page has unmounted by the time Undo is pressed, and
                // a mutation hook's per-call callbacks would not run any more.
                onClick: () =>
                  client.books.restore.mutate({ ids }).then(
                    () => {
                      toast.success(m.books_restored())
                      void cache.refresh()
                    },
                    (error: unknown) => toastError(error),
                  ),
              },
            },
          )
        },
      },
    )
  }
}
